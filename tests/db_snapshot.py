"""The content of the project's tables in one comparable value: proof that a refused request wrote nothing.

Every model of every installed app (`django.apps`), many-to-many tables included, so an app added later (ratings,
seasons) is covered without anyone remembering to list it here. Only rows that are not the project's data are left
out, each for its reason (`NOT_DATA`)."""
from django.apps import apps
from django.db import connection

NOT_DATA = {
    "auth.Permission": "made by migrations, never by a request",
    "contenttypes.ContentType": "made by migrations, never by a request",
    "sessions.Session": "the visitor's own session (a refused sign-in or a flash message may touch it)",
}
"""Tables a request may write without it being a write of the project's data, with why."""


def snapshot_models(exclude: set[str] = frozenset()) -> list:
    """Every concrete model the snapshot reads, in a stable order; `exclude`: more model labels to leave out."""
    return sorted((model for model in apps.get_models(include_auto_created=True)
                   if model._meta.managed and not model._meta.proxy
                   and model._meta.label not in NOT_DATA and model._meta.label not in exclude),
                  key=lambda model: model._meta.label)


def snapshot(exclude: set[str] = frozenset()) -> dict:
    """Per model, its rows (or on PostgreSQL their count and digest, in one query); `exclude`: model labels."""
    models = snapshot_models(set(exclude))
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
