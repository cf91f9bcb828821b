"""Django's `{% url %}`, keeping what it reversed: a builtin of every template (settings.TEMPLATES).

A URL depends only on the view's name, its arguments, the current app, the script prefix and the
URL conf, and reversing one costs tens of microseconds: a game page reverses some thirty (the
header's links, each form's action), a tenth of its CPU when its fragments come from the cache.
The last KEPT are kept in each process, for arguments that are numbers or plain text; anything
else is reversed every time, as Django's own tag does. Otherwise the tag is Django's: the same
words, the same URL, `as var` the same.
"""

from functools import lru_cache

from django import template
from django.conf import settings
from django.template import defaulttags
from django.urls import NoReverseMatch, get_script_prefix, get_urlconf, reverse
from django.utils.html import conditional_escape

register = template.Library()

KEPT = 4096


class KeptURLNode(defaulttags.URLNode):
    def render(self, context):
        args = [arg.resolve(context) for arg in self.args]
        kwargs = {k: v.resolve(context) for k, v in self.kwargs.items()}
        view_name = self.view_name.resolve(context)
        try:
            current_app = context.request.current_app
        except AttributeError:
            try:
                current_app = context.request.resolver_match.namespace
            except AttributeError:
                current_app = None
        url = ""
        try:
            url = reversed_url(view_name, args, kwargs, current_app)
        except NoReverseMatch:
            if self.asvar is None:
                raise
        if self.asvar:
            context[self.asvar] = url
            return ""
        return conditional_escape(url) if context.autoescape else url


def reversed_url(view_name, args, kwargs, current_app):
    """reverse(), kept when the view's name, the current app and every argument are whole numbers
    or text (a template's literal is text marked safe: the same text)."""
    if not (_plain(view_name) and (current_app is None or _plain(current_app))) or not all(
        _plain(part) for part in (*args, *kwargs.values())
    ):
        return reverse(view_name, args=args, kwargs=kwargs, current_app=current_app)
    return _kept(
        str(view_name),
        tuple(a if type(a) is int else str(a) for a in args),
        tuple(sorted((k, v if type(v) is int else str(v)) for k, v in kwargs.items())),
        None if current_app is None else str(current_app),
        get_script_prefix(),
        get_urlconf() or settings.ROOT_URLCONF,
    )


def _plain(part):
    return type(part) is int or isinstance(part, str)


@lru_cache(maxsize=KEPT)
def _kept(view_name, args, kwargs, current_app, prefix, urlconf):
    return reverse(view_name, urlconf=urlconf, args=list(args), kwargs=dict(kwargs), current_app=current_app)


@register.tag
def url(parser, token):
    node = defaulttags.url(parser, token)
    return KeptURLNode(node.view_name, node.args, node.kwargs, node.asvar)
