/* The game page, a little friendlier with JavaScript (every form works without it).
 *  - the show just counted is said aloud a combination at a time, its cards lit up;
 *  - the crib form: exactly as many cards as the crib needs;
 *  - the page reloads itself when the game moves on (it polls state.json),
 *    unless you are in the middle of choosing, then it says so instead. */
(function () {
  "use strict";
  var table = document.getElementById("table");
  if (!table) return;

  var moment = table.querySelector(".show-moment");
  if (moment) {
    // Every combination of every hand, in the order they are counted; then each hand's total.
    var steps = [];
    moment.querySelectorAll(".counted-show").forEach(function (show) {
      show.querySelectorAll(".show-step").forEach(function (li) { steps.push({ show: show, li: li }); });
      var total = show.querySelector(".show-total");
      if (total) steps.push({ show: show, li: total, total: true });
    });
    var next = 0, timer = null;
    var light = function (show, codes) {
      moment.querySelectorAll(".show-card.lit").forEach(function (c) { c.classList.remove("lit"); });
      if (!show) return;
      show.querySelectorAll(".show-card").forEach(function (c) {
        if (codes.indexOf(c.getAttribute("data-card")) >= 0) c.classList.add("lit");
      });
    };
    var say = function () {
      moment.classList.add("stepping");
      if (next >= steps.length) { stop(); light(null); return; }
      var step = steps[next++];
      moment.querySelectorAll(".show-step.now").forEach(function (li) { li.classList.remove("now"); });
      step.li.classList.add("said-aloud");
      if (!step.total) step.li.classList.add("now");
      light(step.show, step.total ? [] : (step.li.getAttribute("data-cards") || "").split(" "));
    };
    var stop = function () { if (timer) { clearInterval(timer); timer = null; } };
    var all = function () {
      stop();
      steps.forEach(function (s) { s.li.classList.add("said-aloud"); });
      next = steps.length;
      moment.querySelectorAll(".show-step.now").forEach(function (li) { li.classList.remove("now"); });
      light(null);
    };
    var again = function () {
      stop();
      steps.forEach(function (s) { s.li.classList.remove("said-aloud", "now"); });
      next = 0;
      say();
      timer = setInterval(say, 1400);
    };
    var button = function (text, action) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "secondary";
      b.textContent = text;
      b.addEventListener("click", action);
      return b;
    };
    var controls = document.createElement("p");
    controls.className = "show-controls";
    controls.appendChild(button("Next", function () { stop(); say(); }));
    controls.appendChild(button("Show it all", all));
    controls.appendChild(button("Count it again", again));
    moment.appendChild(controls);
    if (steps.length && !(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches)) {
      moment.setAttribute("aria-live", "polite");
      again();
    }
  }

  var discard = table.querySelector(".discard-form");
  if (discard) {
    var pick = parseInt(discard.getAttribute("data-pick"), 10);
    var boxes = discard.querySelectorAll("input[name=cards]");
    var submit = discard.querySelector("button[type=submit]");
    var update = function () {
      var chosen = discard.querySelectorAll("input[name=cards]:checked").length;
      submit.disabled = chosen !== pick;
      boxes.forEach(function (b) { b.disabled = !b.checked && chosen >= pick; });
    };
    boxes.forEach(function (b) { b.addEventListener("change", update); });
    update();
  }

  var forms = table.querySelectorAll("form");
  var busy = function () {
    if (table.querySelector("input[name=cards]:checked")) return true;
    var active = document.activeElement;
    return !!(active && active.form && table.contains(active.form) && active.type === "number");
  };
  forms.forEach(function (f) {
    f.addEventListener("submit", function () {
      // One submission per form: the token makes a second one harmless, this makes it rare.
      setTimeout(function () { f.querySelectorAll("button").forEach(function (b) { b.disabled = true; }); }, 0);
    });
  });

  var url = table.getAttribute("data-state-url");
  var seq = table.getAttribute("data-seq");
  var notice = null;
  var poll = function () {
    if (document.hidden) return;
    fetch(url, { headers: { "Accept": "application/json" }, credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (state) {
        if (!state || String(state.seq) === seq) return;
        if (!busy()) { window.location.reload(); return; }
        if (!notice) {
          notice = document.createElement("p");
          notice.className = "moved-on";
          notice.setAttribute("role", "status");
          notice.innerHTML = 'The game has moved on. <a href="">Reload the page</a> to see it.';
          table.insertBefore(notice, table.firstChild);
        }
      })
      .catch(function () {});
  };
  if (window.fetch && table.getAttribute("data-status") !== "finished") {
    setInterval(poll, 15000);
    document.addEventListener("visibilitychange", poll);
  }
})();
