"""Loading a tournament file (format.py) into a database that does not have the tournament.

All or nothing, in one transaction. Rows are matched or created by natural key:

- users by username (an existing user is used as it is; a new one gets no usable password),
- countries by code, the championship by slug (an existing one is used as it is, and only for one of its
  organizers named with `--as`: the file itself is not trusted to say whose championship it joins),
- players by email, or without one by name, date of birth and country (an existing one is used
  as it is; two that fit are an error: the file cannot say which one is meant),
- relationships by their two players, declared for the restored tournament's championship,
- another tournament an entry qualified from by slug; where it is not in this database the link
  is dropped (with the rank in it) and said in the notes,
- a player erased here since the file was written (privacy.models.Erasure, by the file's player id) stays erased:
  the row here if it is still here, else the file's player created and erased again, under the same pseudonym.

Everything of the tournament itself is created with new ids, timestamps as they were.
"""
import json
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.exceptions import FieldDoesNotExist, PermissionDenied, ValidationError
from django.core.serializers.base import DeserializationError
from django.db import DatabaseError, models, transaction
from django.utils.dateparse import parse_datetime

from audit.models import AuditEntry
from championships.models import (
    Championship,
    Country,
    Declaration,
    Entry,
    Player,
    Relationship,
    StaffRole,
    Tournament,
)
from championships.permissions import may_change_player, require_championship_organizer
from championships.relationships import declaration_scope
from core.changes import announce
from privacy.erasure import born_iso, erase, pseudonym
from privacy.models import Erasure
from results.models import SheetRevision

from . import payloads
from .format import (
    FORMAT,
    LINKED_TOURNAMENT_FIELDS,
    RENAMED,
    USER_FIELDS,
    VERSION,
    model_name,
    models_in_loading_order,
)

MAX_DEPTH = 32
"""Levels of nesting a tournament file never reaches (its deepest rows, audit entries and sheet revisions, use
about eight); a deeper file is refused before anything walks it."""


class ImportProblem(Exception):
    """The file cannot be loaded; the message names the problem (and the object, where there is one)."""


@dataclass
class Restored:
    tournament: Tournament
    notes: list[str] = field(default_factory=list)
    """What was matched rather than created, and links that were dropped: for the person restoring."""


def read_file(stream):
    try:
        data = json.load(stream)
    except RecursionError:
        raise ImportProblem("nested too deeply to be a tournament file") from None
    except (ValueError, UnicodeDecodeError) as error:
        raise ImportProblem(f"not a JSON file: {error}") from None
    if _deeper_than(data, MAX_DEPTH):
        raise ImportProblem(f"nested more than {MAX_DEPTH} levels deep: not a tournament file")
    return data


def _deeper_than(data, limit: int) -> bool:
    """Without recursion, so no file can exhaust the stack."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > limit:
            return True
        if isinstance(value, dict):
            stack.extend((item, depth + 1) for item in value.values())
        elif isinstance(value, list):
            stack.extend((item, depth + 1) for item in value)
    return False


def restore_tournament(data, *, user=None) -> Restored:
    """Load the file's content (as `read_file` gives it); raises ImportProblem, having written nothing.

    `user` is the organizer the import is for: needed to add the tournament to a championship that exists here.
    """
    slug, objects = _checked(data)
    with transaction.atomic():
        if Tournament.objects.filter(slug=slug).exists():
            raise ImportProblem(f"tournament “{slug}” already exists in this database")
        loader = _Loader(slug, user, _erased_since(data.get("exported_at")))
        for number, obj in enumerate(objects, start=1):
            loader.load(number, obj)
        loader.finish()
        loader.erase_again()
        announce(loader.here.pk, results=True)
    return Restored(loader.here, loader.notes)


def _erased_since(exported_at) -> dict[int, Erasure]:
    """The erasures recorded since the file was written (all of them when it does not say when), by player id."""
    since = parse_datetime(exported_at) if isinstance(exported_at, str) else None
    erasures = Erasure.objects.all() if since is None else Erasure.objects.filter(at__gte=since)
    return {erasure.player_id: erasure for erasure in erasures}


def _checked(data) -> tuple[str, list[dict]]:
    """The header and the shape of every object, before anything is written."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ImportProblem(f"not a tournament file: the top level must be an object with \"format\": \"{FORMAT}\"")
    if data.get("version") != VERSION:
        raise ImportProblem(f"file format version {data.get('version')!r}; this program reads version {VERSION}")
    slug, objects = data.get("tournament"), data.get("objects")
    if not isinstance(slug, str) or not slug:
        raise ImportProblem("the header names no tournament (\"tournament\": \"<slug>\")")
    if not isinstance(objects, list):
        raise ImportProblem("\"objects\" must be a list")
    order = {model._meta.label_lower: rank for rank, model in enumerate(models_in_loading_order())}
    last, seen = 0, set()
    for number, obj in enumerate(objects, start=1):
        if not (isinstance(obj, dict) and isinstance(obj.get("model"), str) and type(obj.get("pk")) is int
                and isinstance(obj.get("fields"), dict)):
            raise ImportProblem(f"object {number}: needs \"model\", an integer \"pk\" and \"fields\"")
        label = str(obj["model"])
        obj["model"] = label = RENAMED.get(label, label)
        if label not in order:
            raise ImportProblem(f"object {number}: a tournament file holds no {label!r} rows")
        if (label, obj["pk"]) in seen:
            raise ImportProblem(f"object {number}: a second {label} {obj['pk']}")
        seen.add((label, obj["pk"]))
        if order[label] < last:
            raise ImportProblem(f"object {number} ({label}): out of order; rows come after the rows they refer to")
        last = order[label]
        allowed, relations = _fields(label)
        unknown = set(obj["fields"]) - allowed
        if unknown:
            raise ImportProblem(f"object {number} ({label} {obj['pk']}): unknown fields {', '.join(sorted(unknown))}")
        for name in relations & set(obj["fields"]):
            if not (obj["fields"][name] is None or type(obj["fields"][name]) is int):
                raise ImportProblem(f"object {number} ({label} {obj['pk']}): {name} must be the pk of a row "
                                    "in the file, or null")
    owned = [obj for obj in objects if obj["model"] == "championships.tournament"
             and obj["fields"].get("slug") == slug and set(obj["fields"]) != set(LINKED_TOURNAMENT_FIELDS)]
    if len(owned) != 1:
        raise ImportProblem(f"the file must hold tournament “{slug}” once, with its fields")
    return slug, objects


def _fields(label: str) -> tuple[set[str], set[str]]:
    """The fields an object of the model may carry, and which of them refer to other rows."""
    model = next(m for m in models_in_loading_order() if m._meta.label_lower == label)
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    if model is get_user_model():
        fields = [f for f in fields if f.name in USER_FIELDS]
    return {f.name for f in fields}, {f.name for f in fields if f.is_relation}


class _Loader:
    """Loads the objects in file order, keeping each file id's new id per model."""

    def __init__(self, slug: str, user=None, erased: dict[int, Erasure] | None = None):
        self.slug = slug
        self.user = user
        self.erased = erased or {}
        """Players of the file erased here since it was written, by the file's id."""
        self.to_erase: dict[int, tuple[int, list[str]]] = {}
        """Their ids here, with the details the file still holds (to scrub from the restored rows)."""
        self.tournament: Tournament | None = None
        self.notes: list[str] = []
        self.ids: dict[str, dict[int, int]] = {m._meta.model_name: {} for m in models_in_loading_order()}
        self.linked: dict[int, int] = {}
        """Other tournaments (file id → id here) that entries qualified from; only those found by slug."""
        self.linked_slugs: dict[int, str] = {}
        self.championship_created = False
        self.players_here: set[int] = set()
        """Players of the file that were already in this database (matched, not created)."""
        self.deferred: list[tuple[models.Model, models.Field, int]] = []
        self.where = ""
        self.handlers = {
            get_user_model(): self._user, Country: self._country, Championship: self._championship,
            Tournament: self._tournament, Player: self._player, Relationship: self._relationship,
            StaffRole: self._staff_role, SheetRevision: self._revision, AuditEntry: self._audit_entry,
        }

    def load(self, number: int, obj: dict) -> None:
        self.where = f"object {number} ({obj['model']} {obj['pk']})"
        try:
            instance = next(iter(serializers.deserialize("python", [obj]))).object
        except (DeserializationError, FieldDoesNotExist, ValidationError) as error:
            raise ImportProblem(f"{self.where}: {error}") from None
        model = type(instance)
        new_id = self.handlers.get(model, self._create)(instance)
        if new_id is not None:
            self.ids[model_name(model)][obj["pk"]] = new_id

    def finish(self) -> None:
        """Links of a row to another row of its own table (an entry that replaces another)."""
        for instance, fk, old in self.deferred:
            new = self.ids[model_name(fk.related_model)].get(old)
            if new is None:
                self.notes.append(f"{instance._meta.verbose_name} {instance}: its {fk.name} is not in the file; "
                                  "the link was dropped")
                continue
            try:
                type(instance)._default_manager.filter(pk=instance.pk).update(**{fk.attname: new})
            except DatabaseError as error:
                raise ImportProblem(f"{instance._meta.verbose_name} {instance}: the database refused its "
                                    f"{fk.name}: {error}".strip()) from None

    # Rows matched by natural key.

    def _user(self, user) -> int:
        existing = get_user_model().objects.filter(username=user.username).first()
        if existing is not None:
            return existing.pk
        user.set_unusable_password()
        self.notes.append(f"user “{user.username}” created without a password: set one with "
                          f"`manage.py changepassword {user.username}`")
        return self._create(user)

    def _country(self, country) -> int:
        existing = Country.objects.filter(code=country.code).first()
        return existing.pk if existing is not None else self._create(country)

    def _championship(self, championship) -> int:
        existing = Championship.objects.filter(slug=championship.slug).first()
        if existing is None:
            self.championship_created = True
            return self._create(championship)
        if self.user is None:
            raise ImportProblem(f"{self.where}: championship “{championship.slug}” already exists here; the file's "
                                "tournament is added to it only for one of its organizers: run again with "
                                "--as USERNAME")
        try:
            require_championship_organizer(self.user, existing)
        except PermissionDenied:
            raise ImportProblem(f"{self.where}: {self.user.get_username()} does not organize championship "
                                f"“{championship.slug}”, which already exists here") from None
        self.notes.append(f"championship “{championship.slug}” exists: used as it is, its organizer roles "
                          "unchanged")
        return existing.pk

    @property
    def here(self) -> Tournament:
        """The tournament being restored: the file holds it once, before any row that refers to it (`_checked`)."""
        assert self.tournament is not None
        return self.tournament

    def _tournament(self, tournament) -> int | None:
        if tournament.slug == self.slug:
            self.tournament = tournament
            return self._create(tournament)
        self.linked_slugs[tournament.pk] = tournament.slug
        existing = Tournament.objects.filter(slug=tournament.slug).first()
        if existing is not None:
            self.linked[tournament.pk] = existing.pk
        return None

    def _player(self, player) -> int:
        self._relink(player)
        if player.pk in self.erased:
            return self._erased_player(player)
        if player.email:
            found = list(Player.objects.filter(email=player.email))
        else:
            found = list(Player.objects.filter(email="", name=player.name, date_of_birth=player.date_of_birth,
                                               country_id=player.country_id)[:2])
        if len(found) > 1:
            raise ImportProblem(f"{self.where}: two players here are “{player.name}” (born {player.date_of_birth}, "
                                "no email); give them emails so the file's player can be told apart")
        if found:
            self.players_here.add(found[0].pk)
            return found[0].pk
        if player.user_id is not None and Player.objects.filter(user_id=player.user_id).exists():
            self.notes.append(f"player “{player.name}”: the user is already another player's; not linked")
            player.user_id = None
        return self._save(player)

    def _erased_player(self, player) -> int:
        """The erased player's row, if still here; else the file's player, erased again once everything is loaded."""
        number, details = player.pk, [player.name, player.email, born_iso(player.date_of_birth)]
        if Player.objects.filter(pk=number, name=pseudonym(number)).exists():
            new_id = number
        else:
            player.email, player.user_id = "", None
            new_id = self._save(player)
        self.to_erase[new_id] = (number, details)
        return new_id

    def erase_again(self) -> None:
        """Apply the erasures recorded since the file was written to what it brought back (`privacy.erasure`)."""
        for new_id, (number, details) in self.to_erase.items():
            erase(new_id, by=self.erased[number].by, number=number, also=details, record=False)
            self.notes.append(f"player {number}: erased here on {self.erased[number].at:%Y-%m-%d}, after the file "
                              f"was written; kept erased, as {pseudonym(number)}")

    def _relationship(self, relationship) -> int:
        self._relink(relationship)
        low, high = sorted((relationship.player_a_id, relationship.player_b_id))
        if low == high:
            raise ImportProblem(f"{self.where}: a player cannot be related to themselves")
        if not Relationship.objects.filter(player_a_id=low, player_b_id=high).exists():
            self._refuse_a_pair_of_others(low, high)
        existing, _created = Relationship.objects.get_or_create(player_a_id=low, player_b_id=high,
                                                               defaults={"kind": relationship.kind})
        Declaration.objects.get_or_create(relationship=existing, **declaration_scope(self.here))
        return existing.pk

    def _refuse_a_pair_of_others(self, low: int, high: int) -> None:
        """A new pair between two players who were already here and play in another championship: that
        championship's organizers declare it, not a file (unless `--as` names one who may change both)."""
        if not {low, high} <= self.players_here:
            return
        elsewhere = Entry.objects.filter(player_id__in=(low, high))
        if self.here.championship_id is not None:
            elsewhere = elsewhere.exclude(tournament__championship_id=self.here.championship_id)
        players = list(Player.objects.filter(pk__in=(low, high)).order_by("pk"))
        if not elsewhere.exists() or (self.user is not None and all(may_change_player(self.user, p) for p in players)):
            return
        raise ImportProblem(f"{self.where}: {players[0].name} and {players[1].name} were already here and play in "
                            "another championship; a file may not declare them friends or family (their "
                            "championship's organizers do)")

    # Rows of the tournament, created.

    def _staff_role(self, role) -> int | None:
        if role.championship_id is not None and not self.championship_created:
            return None  # an existing championship keeps its organizers (see _championship)
        return self._create(role)

    def _revision(self, revision) -> int:
        self._relink(revision)
        revision.data = payloads.sheet_data(revision.data, self._new_id)
        return self._save(revision)

    def _audit_entry(self, entry) -> int:
        self._relink(entry)
        model = next((m for m in models_in_loading_order() if m._meta.model_name == entry.object_type), None)
        entry.before = payloads.audit_data(entry.action, model, entry.before, self._any_id)
        entry.after = payloads.audit_data(entry.action, model, entry.after, self._any_id)
        # An object outside the file gets id 0 (no row has it), never an unrelated row's id.
        entry.object_id = self._any_id(entry.object_type, entry.object_id) or 0
        return self._save(entry)

    def _create(self, instance) -> int:
        self._relink(instance)
        return self._save(instance)

    def _new_id(self, model_name: str, old: int) -> int | None:
        return self.ids.get(model_name, {}).get(old)

    def _any_id(self, model_name: str, old: int) -> int | None:
        """`_new_id`, or for what an audit entry mentions also another tournament found by slug."""
        if model_name == "tournament" and old in self.linked:
            return self.linked[old]
        return self._new_id(model_name, old)

    def _relink(self, instance) -> None:
        """Point each foreign key at the new id of the row the file named."""
        for fk in instance._meta.concrete_fields:
            old = getattr(instance, fk.attname) if fk.is_relation else None
            if old is None:
                continue
            if fk.related_model is type(instance):
                self.deferred.append((instance, fk, old))
                setattr(instance, fk.attname, None)
                continue
            if isinstance(instance, Entry) and fk.name == "source_tournament":
                new = self.linked.get(old)
                if new is None:
                    self.notes.append(f"entry of player {instance.player_id}: qualified from tournament "
                                      f"“{self.linked_slugs.get(old, old)}”, which is not in this database; "
                                      "the link (and the rank in it) was dropped")
                    instance.source_rank = None
            else:
                new = self._new_id(fk.related_model._meta.model_name, old)
                if new is None:
                    raise ImportProblem(f"{self.where}: {fk.name} refers to {fk.related_model._meta.model_name} "
                                        f"{old}, which is not in the file")
            setattr(instance, fk.attname, new)

    def _save(self, instance) -> int:
        """Insert as a new row; raw, so timestamps (auto_now_add) keep the file's values."""
        relations = [f.name for f in instance._meta.concrete_fields if f.is_relation]
        try:
            instance.clean_fields(exclude=relations)
        except ValidationError as error:
            raise ImportProblem(f"{self.where}: {_said(error)}") from None
        instance.pk = None
        instance._state.adding = True
        try:
            instance.save_base(raw=True, force_insert=True)
        except DatabaseError as error:
            raise ImportProblem(f"{self.where}: the database refused it: {error}".strip()) from None
        return instance.pk


def _said(error: ValidationError) -> str:
    if hasattr(error, "error_dict"):
        return "; ".join(f"{name}: {' '.join(messages)}" for name, messages in error.message_dict.items())
    return " ".join(error.messages)
