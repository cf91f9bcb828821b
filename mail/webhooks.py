"""The providers' inbound webhooks: anymail's views, except that a payload anymail cannot read
(not JSON, fields missing or of the wrong type, bad base64, ...) is answered 400 and stores
nothing, where anymail would fail with a 500 and the provider retry it for days.

Database trouble is not a bad payload: it still fails (5xx), so the provider tries again.
"""

import binascii
import email.errors
import functools
import logging

from anymail.exceptions import AnymailConfigurationError, AnymailError
from anymail.webhooks.amazon_ses import AmazonSESInboundWebhookView
from anymail.webhooks.brevo import BrevoInboundWebhookView
from anymail.webhooks.mailgun import MailgunInboundWebhookView
from anymail.webhooks.postmark import PostmarkInboundWebhookView
from django.http import HttpResponseBadRequest
from django.urls import path, re_path
from django.views.decorators.csrf import csrf_exempt

log = logging.getLogger(__name__)

# What reading a payload raises when it is not what the provider sends (anymail's own errors
# include a tracking event posted to the inbound URL); mail.reception.NotAReply is a ValueError.
UNREADABLE = (
    ValueError,
    KeyError,
    IndexError,
    TypeError,
    AttributeError,
    binascii.Error,
    email.errors.MessageError,
    AnymailError,
    AnymailConfigurationError,
)


def readable_or_400(view, provider):
    @csrf_exempt
    @functools.wraps(view)
    def guarded(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except UNREADABLE as exc:
            log.warning("Unreadable %s inbound payload refused: %s: %s", provider, type(exc).__name__, exc)
            return HttpResponseBadRequest(
                f"Unreadable {provider} inbound payload ({type(exc).__name__}).", content_type="text/plain"
            )

    return guarded


urlpatterns = [
    path("amazon_ses/inbound/", readable_or_400(AmazonSESInboundWebhookView.as_view(), "Amazon SES")),
    path("brevo/inbound/", readable_or_400(BrevoInboundWebhookView.as_view(), "Brevo")),
    re_path(r"^mailgun/inbound(_mime)?/$", readable_or_400(MailgunInboundWebhookView.as_view(), "Mailgun")),
    path("postmark/inbound/", readable_or_400(PostmarkInboundWebhookView.as_view(), "Postmark")),
]
