"""Send one of the accounts emails: plain text with an HTML alternative."""
from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string


def send(to, template, context):
    """Render templates/accounts/email/<template>_subject.txt, .txt and .html and send."""
    context = {"site_url": settings.SITE_URL, **context}
    base = f"accounts/email/{template}"
    subject = " ".join(render_to_string(f"{base}_subject.txt", context).split())
    text = render_to_string(f"{base}.txt", context)
    html = render_to_string(f"{base}.html", context)
    message = EmailMultiAlternatives(subject, text, settings.DEFAULT_FROM_EMAIL, [to])
    message.attach_alternative(html, "text/html")
    message.send()


def absolute(path):
    """An absolute link on this site (mail is read far from any request)."""
    return f"{settings.SITE_URL}{path}"
