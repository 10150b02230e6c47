// Submit once: while a form's POST is on its way, a second submit (a double click, an impatient
// Enter) is dropped, so it cannot create a watchlist, order a report or add a customer person
// twice. No inline script: CSP.
const GUARD_MS = 10000; // a POST answered with a file download leaves the page: let it be sent again

document.addEventListener("submit", (event) => {
  const form = event.target;
  if (form.method !== "post") return;
  if (form.dataset.submitting) {
    event.preventDefault();
    event.stopImmediatePropagation();
    return;
  }
  form.dataset.submitting = "1";
  setTimeout(() => { delete form.dataset.submitting; }, GUARD_MS);
}, true);

// An htmx form stays on the page: once answered, it may be sent again.
document.addEventListener("htmx:afterRequest", (event) => {
  const form = event.detail.elt.closest("form");
  if (form) delete form.dataset.submitting;
});

// Back to the page from the browser's cache: its forms may be sent again.
window.addEventListener("pageshow", () => {
  document.querySelectorAll("form[data-submitting]").forEach((form) => { delete form.dataset.submitting; });
});
