"""Background planning of a stage's seating, reporting how far the search has got."""
from celery import shared_task
from django.utils.translation import gettext as _

from . import services


@shared_task(bind=True)
def generate_seating_task(self, stage_id: int, seed: int) -> dict:
    def progress(done: float) -> None:
        if not self.request.is_eager:
            self.update_state(state="PROGRESS", meta={"done": done})

    report = services.generate_seating(stage_id, seed=seed, progress=progress).report
    return {
        "message": _("Seating planned in %(s).1f s: %(f)d friend conflicts, %(r)d repeat pairings, "
                     "%(p)d repeated positions, %(c)d same-country tablemates.")
        % {"s": report.seconds, "f": len(report.friend_conflicts), "r": report.repeat_pairings,
           "p": report.position_repeats, "c": report.same_country_tablemates},
    }
