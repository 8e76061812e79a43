"""A model moved from one app to another keeps its rows: the migration that creates it in its new app adopts the old
app's table where a database has one (renamed, with its content type, so permissions and admin history follow) and
creates it where it does not (a new database). Used by the apps that took over the models of the former `organize`
app (docs/architecture.md)."""
from django.apps.registry import Apps
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor


def adopt_table(old_table: str, app_label: str, model_name: str) -> migrations.RunPython:
    """The operation to run after the model's state-only `CreateModel`, which must precede it in the migration."""
    old_app = old_table.split("_", 1)[0]

    def forwards(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
        model = apps.get_model(app_label, model_name)
        if old_table in schema_editor.connection.introspection.table_names():
            schema_editor.alter_db_table(model, old_table, model._meta.db_table)
            content_types = apps.get_model("contenttypes", "ContentType").objects
            if not content_types.filter(app_label=app_label, model=model._meta.model_name).exists():
                content_types.filter(app_label=old_app, model=model._meta.model_name).update(app_label=app_label)
        else:
            schema_editor.create_model(model)

    def backwards(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
        model = apps.get_model(app_label, model_name)
        schema_editor.alter_db_table(model, model._meta.db_table, old_table)

    return migrations.RunPython(forwards, backwards)
