"""The demo, seeded once per test module for the tests that only read it."""
import pytest
from django.core.management import call_command
from django.db import transaction


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    """One demo for the tests that only read it (seeding takes seconds), rolled back after the module."""
    with django_db_blocker.unblock(), transaction.atomic():
        call_command("seed_demo", "--force")
        yield
        transaction.set_rollback(True)
