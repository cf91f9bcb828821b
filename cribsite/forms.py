"""How every {{ form }} of the site is laid out (settings.FORM_RENDERER).

Django's own field layout puts the help text between the label and the box, so a
password's rules came before the place to type it; here a field reads label, box,
what is wrong with it, then its help (templates/forms/field.html).
"""

from django.forms.renderers import TemplatesSetting


class SiteFormRenderer(TemplatesSetting):
    field_template_name = "forms/field.html"
