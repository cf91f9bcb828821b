// A time zone select marked data-guess-zone (a player who has not chosen one) is set to the
// browser's own zone, and says so; without JavaScript the select keeps its default.
(function () {
  "use strict";
  var zone;
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch (error) {
    return;
  }
  if (!zone) return;
  document.querySelectorAll("select[data-guess-zone]").forEach(function (select) {
    var option = Array.prototype.find.call(select.options, function (o) { return o.value === zone; });
    if (!option || select.value === zone) return;
    select.value = zone;
    var note = document.createElement("div");
    note.className = "helptext zone-guess";
    note.id = select.id + "_guess";
    note.textContent = "Set to your browser's time zone, " + option.textContent + ": change it if it is wrong.";
    select.insertAdjacentElement("afterend", note);
    var described = select.getAttribute("aria-describedby");
    select.setAttribute("aria-describedby", (described ? described + " " : "") + note.id);
  });
})();
