"""`{% kept "name" value ... %}...{% endkept %}`: a part of a page that depends on nothing but the
values named, rendered once per process for each set of them and kept (a builtin of every
template, settings.TEMPLATES).

For the header's menu, the same on every page of a reader and a section but for its CSRF
token, which is kept as a mark and filled in on every look (games.fragments' marks). Every
value the part reads must be named: a part that reads another renders wrong for a reader
who differs only there. Kept in memory, the last KEPT sets at most; never with DEBUG on
(a template edited while the server runs would not show).
"""

from django import template
from django.conf import settings
from django.urls import get_script_prefix
from django.utils.safestring import mark_safe

from games import fragments

register = template.Library()

KEPT = 2048
PARTS: dict = {}  # (name, script prefix, *values) -> html, its CSRF token a mark


class KeptNode(template.Node):
    # A kept part holds no block: Django looks for the blocks of a page's base template on every
    # render (ExtendsNode.render), and need not walk through the kept parts to find them.
    child_nodelists = ()

    def __init__(self, name, values, nodelist):
        self.name, self.values, self.nodelist = name, values, nodelist

    def render(self, context):
        if settings.DEBUG:
            return self.nodelist.render(context)
        key = (self.name, get_script_prefix(), *(value.resolve(context) for value in self.values))
        try:
            html = PARTS.get(key)
        except TypeError:  # a value that cannot be a key: rendered as it stands
            return self.nodelist.render(context)
        if html is None:
            with context.push(csrf_token=fragments.hole("csrf")):
                html = str(self.nodelist.render(context))
            if len(PARTS) >= KEPT:
                PARTS.clear()
            PARTS[key] = html
        try:
            return mark_safe(fragments.filled(html, context))  # noqa: S308 (the template's own rendering)
        except fragments.Unfilled:  # no CSRF token in this context
            return self.nodelist.render(context)


@register.tag
def kept(parser, token):
    bits = token.split_contents()
    if len(bits) < 2 or bits[1][0] not in "\"'" or bits[1][-1] != bits[1][0]:
        raise template.TemplateSyntaxError('Usage: {% kept "name" value ... %}...{% endkept %}')
    values = [parser.compile_filter(bit) for bit in bits[2:]]
    nodelist = parser.parse(("endkept",))
    parser.delete_first_token()
    return KeptNode(bits[1][1:-1], values, nodelist)
