"""The content of the project's tables in one comparable value: proof that a refused request wrote nothing."""
from django.apps import apps
from django.db import connection

SNAPSHOT_APPS = {"auth", "admin", "axes", "audit", "championships", "scheduling", "results", "ranking", "organize",
                 "webhooks"}


def _models(exclude: set[str]):
    return [model for model in apps.get_models() if model._meta.app_label in SNAPSHOT_APPS
            and model._meta.label != "auth.Permission" and model._meta.label not in exclude]


def snapshot(exclude: set[str] = frozenset()) -> dict:
    """Per model, its rows (or on PostgreSQL their count and digest, in one query); `exclude`: model labels."""
    models = _models(set(exclude))
    if connection.vendor != "postgresql":
        return {m._meta.label: list(m._default_manager.order_by("pk").values_list()) for m in models}
    quote = connection.ops.quote_name
    sql = " UNION ALL ".join(
        f"SELECT %s, count(*), md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) "
        f"FROM {quote(m._meta.db_table)} t" for m in models)
    with connection.cursor() as cursor:
        cursor.execute(sql, [m._meta.label for m in models])
        return {label: (count, digest) for label, count, digest in cursor.fetchall()}


def changed(before: dict, after: dict) -> list[str]:
    return [label for label in before if before[label] != after.get(label)]
