"""What the browser tests that look at pages measure: a page at a phone's and a desktop's width.

A page never scrolls sideways, no picture is wider than the screen unless a scroller of its own
that fits holds it, and no id is used twice.
"""

from django.conf import settings as django_settings
from django.test import Client

WIDTHS = (390, 1366)

# What is measured on each page: the page's own overflow, and every picture wider than the
# screen that no narrower scroller of its own holds.
MEASURE = """() => {
  const width = window.innerWidth;
  const scrolls = el => {
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      const style = getComputedStyle(up);
      if (['auto', 'scroll'].includes(style.overflowX) && up.getBoundingClientRect().width <= width + 1) return true;
    }
    return false;
  };
  let wide = [...document.querySelectorAll('img, svg, video, canvas, iframe')]
    .filter(el => !(el.parentElement && el.parentElement.closest('svg')))
    .filter(el => { const r = el.getBoundingClientRect(); return r.width > 0 && (r.width > width + 1 || r.right > width + 1); })
    .filter(el => !scrolls(el))
    .map(el => `${el.tagName.toLowerCase()}.${el.getAttribute('class') || ''} ${Math.round(el.getBoundingClientRect().width)}px`);
  // A show's total is the point of its table: never scrolled out of sight.
  for (const total of document.querySelectorAll('.show-total')) {
    if (total.getBoundingClientRect().right > width + 1) wide.push('the total of a show, off-screen');
  }
  const culprits = [...document.querySelectorAll('body *')]
    .filter(el => el.getBoundingClientRect().right > width + 1 && !scrolls(el))
    .filter(el => ![...el.children].some(c => c.getBoundingClientRect().right > width + 1))
    .slice(0, 5)
    .map(el => `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}.${el.getAttribute('class') || ''}`
      + ` right ${Math.round(el.getBoundingClientRect().right)}px`);
  // An id is the page's once: a script or a link finds the first of two.
  const ids = [...document.querySelectorAll('[id]')].map(el => el.id);
  const twice = [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))];
  return {scrollWidth: document.documentElement.scrollWidth, width, wide, culprits, twice};
}"""


def logged_in(browser, base, user):
    """A tab of `user`'s own (None: a visitor), logged in with a session made on the server."""
    context = browser.new_context(viewport={"width": WIDTHS[0], "height": 844})
    if user is not None:
        client = Client()
        client.force_login(user)
        cookie = client.cookies[django_settings.SESSION_COOKIE_NAME].value
        context.add_cookies([{"name": django_settings.SESSION_COOKIE_NAME, "value": cookie, "url": base}])
    return context.new_page()


def misfits(tab, name, width, *, ids=False):
    """The tab at `width` (844 high), and what on its page does not fit: [] when it all does
    (`ids`: an id used twice counts too)."""
    tab.set_viewport_size({"width": width, "height": 844})
    measured = tab.evaluate(MEASURE)
    found = []
    if measured["scrollWidth"] > measured["width"]:
        found.append(f"{name} at {width}px: the page is {measured['scrollWidth']}px wide ({measured['culprits']})")
    if measured["wide"]:
        found.append(f"{name} at {width}px: wider than the screen: {measured['wide']}")
    if ids and measured["twice"] and width == WIDTHS[0]:
        found.append(f"{name}: an id used twice: {measured['twice']}")
    return found
