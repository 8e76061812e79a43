"""The fifteen catalogs besides English: complete, compiled, and what the pages show.

The catalogs are locale/<lang>/LC_MESSAGES/django.po and the django.mo compiled from it (CI does not
run compilemessages, so the .mo files are committed). The expected strings are looked up through
gettext rather than written here, and must differ from the English source, so a missing or stale
catalog fails.
"""
import ast
import gettext
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.utils.html import escape
from django.utils.translation import gettext as _
from django.utils.translation import override, to_locale

RTL = ["ar", "he", "fa"]
PLURAL_FORMS = {"ar": 6, "he": 4, "fa": 2, "de": 2, "fr": 2, "es": 2, "it": 2, "pt_BR": 2, "nl": 2, "pl": 3, "tr": 2,
                "el": 2, "ja": 1, "zh_Hans": 1, "ko": 1}
"""Each catalog (its folder in locale/, as Django's to_locale names it) and its number of plural forms."""
LANGUAGES = list(PLURAL_FORMS)
LOCALE = Path(settings.BASE_DIR) / "locale"
PLACEHOLDER = re.compile(r"%\([a-z_]+\)[-#0 +]*\d*(?:\.\d+)?[sdfir]")


def parse_po(path: Path) -> list[dict]:
    """Entries of a .po file: msgctxt, msgid, msgid_plural, msgstr (a list, one per plural form), flags.

    polib would do, but it is not a dependency of the project; this reads what makemessages writes.
    The header (empty msgid) is the first entry; obsolete (#~) entries are left out.
    """
    entries, entry, field = [], None, None

    def finish():
        if entry is not None and "msgid" in entry:
            entries.append(entry)

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#~"):
            continue
        if line.startswith("#"):
            if entry is not None and "msgid" in entry:
                finish()
                entry = None
            entry = entry or {"flags": set(), "msgstr": {}}
            if line.startswith("#,"):
                entry["flags"] |= {flag.strip() for flag in line[2:].split(",")}
            continue
        if line.startswith('"'):
            value = ast.literal_eval(line)
            if isinstance(field, tuple):
                entry["msgstr"][field[1]] += value
            else:
                entry[field] += value
            continue
        keyword, _space, rest = line.partition(" ")
        if keyword in ("msgctxt", "msgid") and entry is not None and "msgid" in entry:
            finish()
            entry = None
        entry = entry or {"flags": set(), "msgstr": {}}
        value = ast.literal_eval(rest)
        if keyword.startswith("msgstr"):
            index = int(keyword[7:-1]) if keyword.startswith("msgstr[") else 0
            entry["msgstr"][index] = value
            field = ("msgstr", index)
        else:
            entry[keyword] = value
            field = keyword
    finish()
    for e in entries:
        e["msgstr"] = [e["msgstr"][i] for i in sorted(e["msgstr"])]
    return entries


def catalog(lang: str) -> tuple[dict, list[dict]]:
    """(header entry, message entries) of a language's .po file."""
    entries = parse_po(LOCALE / lang / "LC_MESSAGES" / "django.po")
    header, messages = entries[0], entries[1:]
    assert header["msgid"] == ""
    return header, messages


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_is_translated_and_none_is_fuzzy(lang):
    header, messages = catalog(lang)
    assert "fuzzy" not in header["flags"], "a fuzzy header is left out of the .mo (and its Plural-Forms with it)"
    assert len(messages) > 300
    untranslated = [m["msgid"] for m in messages if not all(s.strip() for s in m["msgstr"])]
    fuzzy = [m["msgid"] for m in messages if "fuzzy" in m["flags"]]
    assert untranslated == [] and fuzzy == []


def test_every_language_has_its_catalog_and_every_catalog_the_same_messages():
    """The same entries everywhere (Arabic is kept up to date with every new text: the team's rule), so a
    catalog missing a newer text, or keeping one the code no longer has, fails."""
    assert sorted(LANGUAGES) == sorted(to_locale(code) for code, _name in settings.LANGUAGES if code != "en")
    keys = {lang: {(m.get("msgctxt"), m["msgid"]) for m in catalog(lang)[1]} for lang in LANGUAGES}
    differing = {lang: {"missing": sorted(map(str, keys["ar"] - found))[:5],
                        "extra": sorted(map(str, found - keys["ar"]))[:5]} for lang, found in keys.items()
                 if found != keys["ar"]}
    assert differing == {}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_plural_forms_and_placeholders(lang):
    header, messages = catalog(lang)
    assert f"Language: {lang}\n" in header["msgstr"][0]
    assert f"nplurals={PLURAL_FORMS[lang]};" in header["msgstr"][0]
    for m in messages:
        source = set(PLACEHOLDER.findall(m["msgid"]))
        if "msgid_plural" in m:
            assert len(m["msgstr"]) == PLURAL_FORMS[lang], m["msgid"]
            plural = set(PLACEHOLDER.findall(m["msgid_plural"]))
            # A form that stands for a single number ("one game", "two games") may spell the number out.
            assert all(set(PLACEHOLDER.findall(s)) <= source | plural for s in m["msgstr"]), m["msgid"]
            assert set(PLACEHOLDER.findall(m["msgstr"][-1])) == plural, m["msgid"]
        elif "python-format" in m["flags"]:
            assert set(PLACEHOLDER.findall(m["msgstr"][0])) == source, m["msgid"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_compiled_catalog_matches_the_po_file(lang):
    """The .mo is committed: it must hold exactly what the .po says (someone ran compilemessages)."""
    _header, messages = catalog(lang)
    with open(LOCALE / lang / "LC_MESSAGES" / "django.mo", "rb") as mo:
        compiled = gettext.GNUTranslations(mo)._catalog
    for m in messages:
        key = f"{m['msgctxt']}\x04{m['msgid']}" if "msgctxt" in m else m["msgid"]
        if "msgid_plural" in m:
            assert [compiled.get((key, i)) for i in range(len(m["msgstr"]))] == m["msgstr"], m["msgid"]
        else:
            assert compiled.get(key) == m["msgstr"][0], m["msgid"]


def test_persian_uses_persian_letters():
    """Persian yeh and keheh (ی ک), not the Arabic ي ك that look alike in most fonts."""
    _header, messages = catalog("fa")
    assert not [s for m in messages for s in m["msgstr"] if re.search("[\u064a\u0643]", s)]


def translated(lang: str, message: str) -> str:
    with override(code(lang)):
        text = _(message)
    assert text != message, f"no {lang} translation of {message!r}"
    return text


def code(lang: str) -> str:
    """The language code of a catalog's folder (pt_BR → pt-br), as addresses and <html lang> write it."""
    return lang.lower().replace("_", "-")


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGUAGES)
def test_public_home_page_is_translated_and_in_its_direction(client, lang):
    page = client.get(f"/{code(lang)}/").content.decode()
    assert f'lang="{code(lang)}" dir="{"rtl" if lang in RTL else "ltr"}"' in page
    assert f"<h1>{escape(translated(lang, 'Tournaments'))}</h1>" in page
    assert escape(translated(lang, "CATAN tournaments")) in page


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGUAGES)
def test_staff_sign_in_page_is_translated(client, lang):
    page = client.get(f"/{code(lang)}/accounts/login/").content.decode()
    assert f'lang="{code(lang)}" dir="{"rtl" if lang in RTL else "ltr"}"' in page
    assert f"<h1>{escape(translated(lang, 'Staff sign-in'))}</h1>" in page
    assert escape(translated(lang, "Sign in")) in page


def test_words_of_two_senses_have_a_context_each():
    """"Seed", "Change", "Event(s)", "entered", "finished" each mean two things; each sense is its own entry, so a
    language that needs two words has them (a tournament is "terminé", a game "terminée")."""
    from django.utils.translation import pgettext

    from championships.models import Registration, Tournament
    from results.models import SheetRevision
    from scheduling.models import Game

    with override("fr"):
        assert (str(Tournament.Status.FINISHED.label), str(Game.Status.FINISHED.label)) == ("terminé", "terminée")
    with override("it"):
        assert str(Registration.Status.ENTERED.label) != str(SheetRevision.Kind.ENTERED.label)
    with override("de"):
        assert (_("Seed"), pgettext("random seed", "Seed")) == ("Setzplatz", "Startwert")
        assert (_("Change"), pgettext("rating", "Change")) == ("Ändern", "Änderung")
        assert (_("Events"), pgettext("webhook", "Events")) == ("Veranstaltungen", "Ereignisse")


GETTEXT_NAMES = {"_", "gettext", "gettext_lazy", "pgettext", "pgettext_lazy", "ngettext", "ngettext_lazy"}


def test_no_text_to_translate_sits_inside_an_f_string():
    """makemessages (xgettext) does not look inside f-strings: `f"{_('record sheet')} · …"` was never in a catalog,
    so every language showed it in English."""
    found = []
    for path in Path(settings.BASE_DIR).rglob("*.py"):
        if {".venv", "node_modules", "migrations"} & set(path.parts):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.JoinedStr):
                found += [f"{path.relative_to(settings.BASE_DIR)}:{node.lineno}" for call in ast.walk(node)
                          if isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
                          and call.func.id in GETTEXT_NAMES]
    assert not found
