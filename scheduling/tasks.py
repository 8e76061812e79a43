"""Background planning of a stage's seating, reporting how far the search has got."""
from celery import shared_task
from django.contrib.auth import get_user_model
from django.utils import translation
from django.utils.translation import gettext as _

from championships.models import Stage
from engines.rulesets import ruleset_for

from . import services


@shared_task(bind=True)
def generate_seating_task(self, stage_id: int, seed: int, user_id: int, language: str = "en") -> dict:
    """`user_id` is the organizer who asked (checked and audited); `language` theirs, so the summary reads in it."""
    with translation.override(language):
        return _planned(self, stage_id, seed, get_user_model().objects.get(pk=user_id))


def _planned(task, stage_id: int, seed: int, user) -> dict:
    def progress(done: float) -> None:
        if not task.request.is_eager:
            task.update_state(state="PROGRESS", meta={"done": done})

    result = services.generate_seating(stage_id, user=user, seed=seed, progress=progress)
    report = result.report
    counts = {"s": report.seconds, "f": len(report.friend_conflicts), "r": report.repeat_pairings,
              "p": report.position_repeats, "c": report.same_country_tablemates}
    ruleset = ruleset_for(Stage.objects.select_related("tournament").get(pk=stage_id).tournament.ruleset)
    if ruleset.distinct_positions:
        message = _("Seating planned in %(s).1f s: %(f)d friend conflicts, %(r)d repeat pairings, "
                    "%(p)d repeated positions, %(c)d same-country tablemates.") % counts
    else:
        message = _("Seating planned in %(s).1f s: %(f)d friend conflicts, %(r)d repeat pairings.") % counts
    return {"message": message}
