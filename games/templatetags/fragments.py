"""`{% load fragments %}`: `{% fragment "name" %}...{% endfragment %}` renders its content once
for the page in the context's `fragments` (a games.fragments.Page, under its key) and reads it
from the cache after; with no page in the context it renders every time."""

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
        if html is None:
            html = self.nodelist.render(context)
            page.made_here(self.name, str(html))
        return mark_safe(html)  # noqa: S308 (the template's own rendering, escaped as it was made)


@register.tag
def fragment(parser, token):
    bits = token.split_contents()
    if len(bits) != 2 or bits[1][0] not in "\"'" or bits[1][-1] != bits[1][0]:
        raise template.TemplateSyntaxError('Usage: {% fragment "name" %}...{% endfragment %}')
    fragments.NAMES.add(bits[1][1:-1])
    nodelist = parser.parse(("endfragment",))
    parser.delete_first_token()
    return FragmentNode(bits[1][1:-1], nodelist)
