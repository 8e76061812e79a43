"""Who plays and in which event: players, championships, tournaments, stages, entries, staff, self-registration,
organizers' API tokens.

One module per concern; Django finds an app's models here, so every model is imported below (in the order they were
defined when this was one module: the personal-data registry lists them in it). Migration 0002 names the slug
validator by this path.
"""
from .api_tokens import ApiToken
from .entries import ACTIVE_STATUSES, GONE_STATUSES, Entry, EntryInvitation, StaffRole
from .events import (
    RESERVED_SLUGS,
    RULESET_CHOICES,
    Championship,
    Stage,
    Tournament,
    validate_not_reserved,
)
from .players import Country, Declaration, Player, Relationship
from .private_page import PlayerLink, PushSubscription
from .signup import FRIENDS_MAX, PrivacyNotice, Registration

__all__ = [
    "ACTIVE_STATUSES", "FRIENDS_MAX", "GONE_STATUSES", "RESERVED_SLUGS", "RULESET_CHOICES", "ApiToken", "Championship",
    "Country", "Declaration", "Entry", "EntryInvitation", "Player", "PlayerLink", "PrivacyNotice", "PushSubscription",
    "Registration", "Relationship", "StaffRole", "Stage", "Tournament", "validate_not_reserved",
]
