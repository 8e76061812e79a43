"""axe-core, the accessibility rules engine, run inside a Playwright page (test support, not a test module)."""
from pathlib import Path

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
"""axe-core from npm (package.json at the project root; `npm ci` installs it)."""

WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def axe_violations(page, script: Path = AXE, tags=WCAG_21_AA) -> list[dict]:
    """Run axe-core on the page as it is now; each violation with its rule, impact and the elements that fail."""
    page.add_script_tag(path=str(script))
    return page.evaluate(
        """async (tags) => {
            const result = await axe.run(document, {runOnly: {type: "tag", values: tags}, resultTypes: ["violations"]});
            return result.violations.map(v => ({
                id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.map(n => ({target: n.target.join(" "), summary: n.failureSummary})),
            }));
        }""",
        tags,
    )
