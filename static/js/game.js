/* The game page, a little friendlier with JavaScript (every form works without it).
 *  - the show just counted is said aloud a combination at a time, its cards lit up;
 *  - the crib form: exactly as many cards as the crib needs;
 *  - choosing a card, then confirming it (on a touch screen, or always, as the player's
 *    "confirm moves" says): a first tap lifts the card, a second tap or the button plays it;
 *  - keys: a card's rank (A, 2-9, T or 0, J, Q, K) picks it, the arrows move along the hand,
 *    Enter plays the card (or lays the cards away), Escape puts them back;
 *  - a finished game is stepped through hand by hand: the board's pegs move to each hand's scores;
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

  var stepper = table.querySelector(".steps");
  if (stepper) (function () {
    var hands = Array.prototype.slice.call(stepper.querySelectorAll(".steps-list li"));
    var boards = table.querySelectorAll(".scoreboard svg.cribbage-board");
    var PITCH = 10;  // games.board_geometry: neighbouring holes
    // Where hole n of track t is on a board: the group of five holding it, or the start and game holes.
    var holeAt = function (svg, t, n) {
      if (n <= 0) {
        var starts = svg.querySelectorAll('.holes circle[data-track="' + t + '"][data-hole="start"]');
        var s = starts[n < 0 ? 0 : 1];
        return [parseFloat(s.getAttribute("cx")), parseFloat(s.getAttribute("cy"))];
      }
      var end = svg.querySelector('.holes circle[data-track="' + t + '"][data-hole="' + n + '"]');
      if (end) return [parseFloat(end.getAttribute("cx")), parseFloat(end.getAttribute("cy"))];
      var fives = svg.querySelectorAll('.holes use[data-track="' + t + '"]');
      for (var i = 0; i < fives.length; i++) {
        var ends = fives[i].getAttribute("data-holes").split("-").map(Number);
        var lo = Math.min(ends[0], ends[1]), hi = Math.max(ends[0], ends[1]);
        if (n >= lo && n <= hi) {
          var x = parseFloat(fives[i].getAttribute("x")) + Math.abs(n - ends[0]) * PITCH;
          return [x, parseFloat(fives[i].getAttribute("y"))];
        }
      }
      return null;
    };
    var place = function (svg, t, which, n) {
      var peg = svg.querySelector('[data-peg="' + which + '"][data-track="' + t + '"]');
      var hole = holeAt(svg, t, which === "back" && n === 0 ? -1 : n);
      if (!peg || !hole) return;
      var c = peg.querySelector("circle");
      var dx = hole[0] - parseFloat(c.getAttribute("cx")), dy = hole[1] - parseFloat(c.getAttribute("cy"));
      peg.setAttribute("transform", "translate(" + dx.toFixed(1) + " " + dy.toFixed(1) + ")");
    };
    var at = hands.length - 1;
    var show = function (i) {
      at = Math.max(0, Math.min(hands.length - 1, i));
      var front = hands[at].getAttribute("data-scores").split(",").map(Number);
      var back = hands[at].getAttribute("data-previous").split(",").map(Number);
      boards.forEach(function (svg) {
        svg.classList.add("stepping");
        front.forEach(function (n, t) { place(svg, t, "front", n); place(svg, t, "back", back[t]); });
      });
      hands.forEach(function (li, k) { li.classList.toggle("now", k === at); li.removeAttribute("aria-current"); });
      hands[at].setAttribute("aria-current", "step");
    };
    var controls = stepper.querySelector(".steps-controls");
    controls.hidden = false;
    controls.addEventListener("click", function (e) {
      var b = e.target.closest("button[data-step]");
      if (!b) return;
      var how = b.getAttribute("data-step");
      show(how === "first" ? 0 : how === "back" ? at - 1 : how === "on" ? at + 1 : hands.length - 1);
    });
    hands.forEach(function (li, k) {
      li.addEventListener("click", function () { show(k); });
    });
  })();

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

  var felt = table.querySelector(".felt");
  var play = table.querySelector(".play-form");
  var chosen = null;
  var confirming = function () {
    var mode = felt ? felt.getAttribute("data-confirm") : "never";
    if (mode === "always") return true;
    if (mode === "never") return false;
    return !!(window.matchMedia && window.matchMedia("(pointer: coarse)").matches);
  };
  var cardButtons = play ? Array.prototype.slice.call(play.querySelectorAll(".card-button:not([disabled])")) : [];
  var confirmBar = play ? play.querySelector(".play-confirm") : null;
  var confirmButton = confirmBar ? confirmBar.querySelector(".play-confirm-button") : null;
  var choose = function (button) {
    cardButtons.forEach(function (b) { b.classList.remove("chosen"); b.setAttribute("aria-pressed", "false"); });
    chosen = button;
    if (!button) {
      confirmBar.hidden = true;
      confirmButton.removeAttribute("name");
      return;
    }
    button.classList.add("chosen");
    button.setAttribute("aria-pressed", "true");
    confirmButton.name = "card";
    confirmButton.value = button.value;
    confirmButton.textContent = "Play the " + button.querySelector("svg").getAttribute("aria-label");
    confirmBar.hidden = false;
  };
  if (play && confirmBar) {
    cardButtons.forEach(function (b) {
      b.addEventListener("click", function (e) {
        // A second tap on the chosen card plays it; a first one only chooses it.
        if (confirming() && chosen !== b) { e.preventDefault(); choose(b); }
      });
    });
    confirmBar.querySelector(".play-cancel").addEventListener("click", function () { choose(null); });
  }

  var rankOf = function (code) { return code.slice(0, -1).replace("10", "T"); };
  var keyRank = function (key) {
    var k = key.toUpperCase();
    if (k === "0" || k === "1") return "T";
    return /^[A2-9TJQK]$/.test(k) ? k : null;
  };
  var nextOfRank = function (list, current, rank) {
    var same = list.filter(function (el) { return rankOf(el.getAttribute("data-card") || el.value) === rank; });
    if (!same.length) return null;
    var at = same.indexOf(current);
    return same[(at + 1) % same.length];
  };
  document.addEventListener("keydown", function (e) {
    var t = e.target;
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (t && (t.tagName === "INPUT" && t.type !== "checkbox" || t.tagName === "TEXTAREA" || t.tagName === "SELECT")) return;
    if (t && t.closest && t.closest("details.plan-disclosure, .talk, header.site")) return;
    var rank = keyRank(e.key);
    if (play && cardButtons.length) {
      if (rank) {
        var b = nextOfRank(cardButtons, chosen, rank);
        if (b) { choose(b); b.focus(); e.preventDefault(); }
      } else if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
        var at = cardButtons.indexOf(chosen);
        var step = e.key === "ArrowRight" ? 1 : -1;
        var to = cardButtons[(at + step + cardButtons.length) % cardButtons.length] || cardButtons[0];
        choose(to); to.focus(); e.preventDefault();
      } else if (e.key === "Enter" && chosen) {
        e.preventDefault();
        play.requestSubmit ? play.requestSubmit(confirmButton) : confirmButton.click();
      } else if (e.key === "Escape" && chosen) {
        choose(null);
      }
      return;
    }
    if (discard && rank) {
      var labels = Array.prototype.slice.call(discard.querySelectorAll(".card-pick"));
      var free = labels.filter(function (l) { return !l.querySelector("input").disabled || l.querySelector("input").checked; });
      var unticked = free.filter(function (l) { return !l.querySelector("input").checked && rankOf(l.getAttribute("data-card")) === rank; });
      var pickIt = unticked[0] || free.filter(function (l) { return rankOf(l.getAttribute("data-card")) === rank; })[0];
      if (pickIt) {
        var box = pickIt.querySelector("input");
        box.checked = !box.checked;
        box.dispatchEvent(new Event("change"));
        box.focus();
        e.preventDefault();
      }
    } else if (discard && e.key === "Enter") {
      var submit = discard.querySelector("button[type=submit]");
      if (!submit.disabled) { e.preventDefault(); discard.requestSubmit ? discard.requestSubmit(submit) : submit.click(); }
    } else if (discard && e.key === "Escape") {
      discard.querySelectorAll("input[name=cards]:checked").forEach(function (b) { b.checked = false; });
      discard.querySelectorAll("input[name=cards]")[0].dispatchEvent(new Event("change"));
    }
  });

  var forms = table.querySelectorAll("form");
  var busy = function () {
    if (table.querySelector("input[name=cards]:checked") || chosen) return true;
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

  // A finished game's review, while the worker prepares it: asked every 3 s for a minute, then
  // every 15 s; the page reloads once it is ready (unless the reader is in the middle of something).
  var pending = table.querySelector(".review-pending[data-review-url]");
  if (pending && window.fetch) (function () {
    var tries = 0;
    var ask = function () {
      tries++;
      fetch(pending.getAttribute("data-review-url"), { headers: { "Accept": "application/json" }, credentials: "same-origin" })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (answer) {
          if (answer && answer.ready && !busy()) { window.location.reload(); return; }
          setTimeout(ask, tries < 20 ? 3000 : 15000);
        })
        .catch(function () { setTimeout(ask, 15000); });
    };
    setTimeout(ask, 1500);
  })();
})();
