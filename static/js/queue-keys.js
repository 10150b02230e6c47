// Keyboard shortcuts of the screening case queue and case page (no dependencies).
//   queue: j / k move through the rows, o or Enter opens the current row's case, x selects it,
//          / the name search; the selection's count and the select-all box of the batch actions
//   case page: r focuses the review form
// Keys typed into a field, or with a modifier, are left alone. The queue's filter
// selects submit on change; the form's Apply button does the same without JavaScript.
(function () {
  "use strict";

  function typing(event) {
    var target = event.target;
    if (event.ctrlKey || event.metaKey || event.altKey) return true;
    if (!target || !target.tagName) return false;
    var tag = target.tagName.toLowerCase();
    return tag === "input" || tag === "textarea" || tag === "select" || target.isContentEditable;
  }

  function rows() {
    return Array.prototype.slice.call(document.querySelectorAll("[data-queue] tbody tr[data-case-url]"));
  }

  function current() {
    return document.querySelector("[data-queue] tbody tr.is-current");
  }

  function mark(row) {
    var previous = current();
    if (previous) previous.classList.remove("is-current");
    if (!row) return;
    row.classList.add("is-current");
    row.scrollIntoView({ block: "nearest" });
    var link = row.querySelector("a.case-link");
    if (link) link.focus({ preventScroll: true });
  }

  function move(step) {
    var all = rows();
    if (!all.length) return;
    var index = all.indexOf(current());
    var next = index < 0 ? (step > 0 ? 0 : all.length - 1) : Math.min(all.length - 1, Math.max(0, index + step));
    mark(all[next]);
  }

  function open() {
    var row = current();
    if (row) window.location.assign(row.getAttribute("data-case-url"));
  }

  function focusReview() {
    var form = document.querySelector("[data-review-form]");
    if (!form) return false;
    form.scrollIntoView({ block: "nearest" });
    var first = form.querySelector("input[name=decision]:checked") || form.querySelector("input[name=decision]");
    if (first) first.focus();
    return true;
  }

  document.addEventListener("keydown", function (event) {
    if (typing(event)) return;
    var key = event.key;
    if (key === "j") { move(1); event.preventDefault(); }
    else if (key === "k") { move(-1); event.preventDefault(); }
    else if ((key === "o" || key === "Enter") && current()) {
      // Enter on a focused link or button does its own thing.
      if (key === "Enter" && document.activeElement && document.activeElement.closest("form")) return;
      open(); event.preventDefault();
    }
    else if (key === "x" && current()) { toggle(current()); event.preventDefault(); }
    else if (key === "r" && focusReview()) { event.preventDefault(); }
    else if (key === "/" && document.getElementById("f-name")) { document.getElementById("f-name").focus(); event.preventDefault(); }
  });

  // A click on a row opens it, unless it was on a link, a button or a form.
  document.addEventListener("click", function (event) {
    var row = event.target.closest && event.target.closest("[data-queue] tbody tr[data-case-url]");
    if (!row || event.target.closest("a, button, form, input, select, label")) return;
    window.location.assign(row.getAttribute("data-case-url"));
  });

  // Selected cases: the batch form's count, and its buttons only when something is selected.
  function boxes() {
    return Array.prototype.slice.call(document.querySelectorAll("[data-queue] tbody input[name=case]"));
  }

  function counted() {
    var form = document.querySelector("[data-case-batch]");
    if (!form) return;
    var all = boxes();
    var chosen = all.filter(function (box) { return box.checked; }).length;
    form.querySelector("[data-selected-count]").textContent =
      chosen ? chosen + " selected" : "Select cases to act on several at once";
    form.querySelectorAll("[data-batch-action]").forEach(function (button) { button.disabled = chosen === 0; });
    var every = document.querySelector("[data-select-all]");
    if (every) {
      every.checked = chosen > 0 && chosen === all.length;
      every.indeterminate = chosen > 0 && chosen < all.length;
    }
  }

  function toggle(row) {
    var box = row.querySelector("input[name=case]");
    if (box) { box.checked = !box.checked; counted(); }
  }

  document.addEventListener("change", function (event) {
    if (event.target.matches("[data-select-all]")) {
      boxes().forEach(function (box) { box.checked = event.target.checked; });
    }
    if (event.target.matches("[data-select-all], [data-queue] input[name=case]")) counted();
  });
  document.body.addEventListener("htmx:afterSwap", counted);  // a row answered by "Assign to me"
  counted();
})();
