"""`{% load fragments %}`: `{% fragment "name" %}...{% endfragment %}` renders its content once
for the page in the context's `fragments` (a games.fragments.Page, under its key) and reads it
from the cache after; with no page in the context it renders every time.

Inside a fragment, `{% live "name" %}...{% endlive %}` is rendered on every look, never kept, and
the CSRF token and `{{ token }}` are this look's (games.fragments: what a live part may read)."""

from django import template
from django.utils.safestring import mark_safe

from games import fragments

register = template.Library()


class FragmentNode(template.Node):
    def __init__(self, name, nodelist):
        self.name, self.nodelist = name, nodelist

    def render(self, context):
        page = context.get("fragments")
        if page is None:
            return self.nodelist.render(context)
        html = page.get(self.name)
        if html is not None:
            try:
                return mark_safe(fragments.filled(html, context))  # noqa: S308 (as below)
            except fragments.Unfilled:
                pass
        with context.push(fragments.keeping()):
            html = str(self.nodelist.render(context))
        page.made_here(self.name, html)
        try:
            html = fragments.filled(html, context)
        except fragments.Unfilled:  # a context with no CSRF token: nothing kept is served
            page.made.pop(self.name, None)
            html = self.nodelist.render(context)
        return mark_safe(html)  # noqa: S308 (the template's own rendering, escaped as it was made)


class LiveNode(template.Node):
    def __init__(self, name, nodelist):
        self.name, self.nodelist = name, nodelist

    def render(self, context):
        if context.get(fragments.KEEPING):
            fragments.LIVE[self.name] = self.nodelist  # what fills the hole: known once it is made
            return fragments.hole(f"live:{self.name}")
        return self.nodelist.render(context)


def _name(token, usage):
    bits = token.split_contents()
    if len(bits) != 2 or bits[1][0] not in "\"'" or bits[1][-1] != bits[1][0]:
        raise template.TemplateSyntaxError(f"Usage: {usage}")
    return bits[1][1:-1]


@register.tag
def fragment(parser, token):
    name = _name(token, '{% fragment "name" %}...{% endfragment %}')
    fragments.NAMES.add(name)
    nodelist = parser.parse(("endfragment",))
    parser.delete_first_token()
    return FragmentNode(name, nodelist)


@register.tag
def live(parser, token):
    name = _name(token, '{% live "name" %}...{% endlive %}')
    nodelist = parser.parse(("endlive",))
    parser.delete_first_token()
    fragments.LIVE[name] = nodelist
    return LiveNode(name, nodelist)
