// "Select all on this page": ticks every row of the pending list (the form also works without it).
document.addEventListener("change", function (event) {
  if (!event.target.matches("[data-select-all]")) return;
  var form = event.target.closest("form");
  form.querySelectorAll("input[name=monitoring]").forEach(function (box) { box.checked = event.target.checked; });
});
