/* The game page, a little friendlier with JavaScript (every form works without it).
 *  - on a narrow screen, where the board scrolls sideways, it opens where the pegs are;
 *  - the crib form: exactly as many cards as the crib needs;
 *  - the page reloads itself when the game moves on (it polls state.json),
 *    unless you are in the middle of choosing, then it says so instead. */
(function () {
  "use strict";
  var scroller = document.querySelector(".board-scroll");
  if (scroller && scroller.scrollWidth > scroller.clientWidth) {
    var box = scroller.getBoundingClientRect(), left = Infinity, right = -Infinity;
    scroller.querySelectorAll("[data-peg=front]").forEach(function (peg) {
      var r = peg.getBoundingClientRect();
      left = Math.min(left, r.left - box.left + scroller.scrollLeft);
      right = Math.max(right, r.right - box.left + scroller.scrollLeft);
    });
    // The front pegs centred; if they are further apart than the screen, the leftmost in view.
    if (left < Infinity) {
      scroller.scrollLeft = Math.max(0, Math.min((left + right - scroller.clientWidth) / 2, left - 24));
    }
  }

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
