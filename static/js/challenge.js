// The challenge form asks for as many players as the chosen game seats: the other players'
// boxes are hidden and left out of the form (without JavaScript they all show, and the
// server says which to fill).
(function () {
  "use strict";
  var variant = document.querySelector("select[data-others-needed]");
  if (!variant) return;
  var needed = JSON.parse(variant.getAttribute("data-others-needed"));
  var more = document.getElementById("more-players");
  var update = function () {
    var count = needed[variant.value] || 1;
    document.querySelectorAll(".opponent[data-seat]").forEach(function (box) {
      var wanted = parseInt(box.getAttribute("data-seat"), 10) <= count;
      box.hidden = !wanted;
      box.querySelectorAll("input").forEach(function (input) { input.disabled = !wanted; });
    });
    if (more) more.hidden = count < 2;
  };
  variant.addEventListener("change", update);
  update();
})();
