/* The game page, a little friendlier with JavaScript (every form works without it).
 *  - the crib form: exactly as many cards as the crib needs;
 *  - the page reloads itself when the game moves on (it polls state.json),
 *    unless you are in the middle of choosing, then it says so instead. */
(function () {
  "use strict";
  var table = document.getElementById("table");
  if (!table) return;

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
