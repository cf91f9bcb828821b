"""A database that drops away mid-request answers a clear 503, never a 500 page."""

import logging
from http import HTTPStatus

from csp.middleware import CheckableLazyObject, CSPMiddleware
from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string

log = logging.getLogger(__name__)

MESSAGE = (
    "We could not reach the database just now, so nothing was changed. "
    "Try again in a minute: a move that did go through counts once, however often it is sent."
)


class DatabaseUnavailableMiddleware:
    """Answer 503 (with Retry-After) when the database connection fails during a view.

    The move service writes a move in one transaction, so a connection lost in
    the middle leaves nothing half-written; the player only needs to be told to
    try again. The page needs no database (no user, no session).
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, (OperationalError, InterfaceError)):
            return None
        log.error("Database unavailable during %s %s: %r", request.method, request.path, exception)
        if request.path.endswith(".json") or "application/json" in request.headers.get("Accept", ""):
            response = JsonResponse({"error": MESSAGE}, status=503)
        else:
            response = HttpResponse(render_to_string("unavailable.html", {"message": MESSAGE}), status=503)
        response["Retry-After"] = "60"
        return response


# NUL cannot be stored (PostgreSQL refuses it in text); U+FFFD is what Django decodes bytes
# that are no UTF-8 into: neither is anything a person typed.
NOT_TEXT = ("\x00", "\ufffd")


class RefuseNonText:
    """400 for an address, query string or form with a NUL or invalid UTF-8 in a name or a value.

    The providers' webhooks are left to mail.webhooks: an email may carry any bytes, and is
    stored made safe (mail.reception) rather than refused.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not request.path.startswith("/anymail/") and (
            _has_non_text([request.path]) or _has_non_text(_texts(request.GET)) or _has_non_text(_texts(request.POST))
        ):
            return HttpResponse(
                "The request has characters that are not text (a NUL, or bytes that are not UTF-8): nothing was done.",
                status=400,
                content_type="text/plain",
            )
        return self.get_response(request)


def _texts(query):
    for key, values in query.lists():
        yield key
        yield from (value for value in values if isinstance(value, str))


def _has_non_text(texts):
    return any(mark in text for text in texts for mark in NOT_TEXT)


class ContentSecurityPolicy(CSPMiddleware):
    """django-csp's middleware, which writes no policy on a 304 Not Modified.

    A 304 has no body: the browser shows the response it keeps, and updates only the headers the
    304 sends (RFC 9111, 4.3.4), so the kept response's policy stands. The policy is built again
    for every response (some 35 µs of CPU), the largest part of the game page's unchanged poll
    beside its two reads. Every other response has its policy as django-csp writes it."""

    def process_response(self, request, response):
        if response.status_code != HTTPStatus.NOT_MODIFIED:
            return super().process_response(request, response)
        if getattr(request, "_csp_nonce", None) is None:  # as django-csp leaves it once written
            request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)
        return response
