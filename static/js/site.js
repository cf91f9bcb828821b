/* Every page: the header's menus (details) behave as menus: one open at a time, closed by a
 * click elsewhere or Escape. Without JavaScript they open and close as details do. */
(function () {
  "use strict";
  var menus = document.querySelectorAll("header.site .nav details");
  var closeAll = function (except) {
    menus.forEach(function (d) { if (d !== except) d.open = false; });
  };
  menus.forEach(function (d) {
    d.addEventListener("toggle", function () { if (d.open) closeAll(d); });
  });
  document.addEventListener("click", function (e) {
    if (!e.target.closest || !e.target.closest("header.site .nav details")) closeAll(null);
  });
  document.addEventListener("keydown", function (e) {
    if (e.key !== "Escape") return;
    var open = document.querySelector("header.site .nav details[open]");
    if (open) { open.open = false; open.querySelector("summary").focus(); }
  });
})();
