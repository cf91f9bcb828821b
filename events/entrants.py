"""Entrants added by email, for every event app: the addresses an organiser pasted."""

from django.core.exceptions import ValidationError
from django.core.validators import validate_email

from accounts.services import normalize_email


def parse_emails(text):
    """The addresses in `text` (one per line, or separated by commas/spaces), validated.

    Raises ValidationError naming every malformed one.
    """
    emails, bad = [], []
    for word in text.replace(",", " ").replace(";", " ").split():
        email = normalize_email(word.strip("<>"))
        try:
            validate_email(email)
        except ValidationError:
            bad.append(word)
            continue
        if email not in emails:
            emails.append(email)
    if bad:
        raise ValidationError(f"Not email addresses: {', '.join(bad)}. Nothing was changed.")
    if not emails:
        raise ValidationError("Paste at least one email address.")
    return emails
