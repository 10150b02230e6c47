// Ask before sending: a form marked data-confirm="Remove …?" is sent only when the browser's dialog is
// accepted (removals of personal data on the customer person's page). No inline script: CSP.
// Loaded before submit-once.js: a form whose dialog is cancelled is not held as being sent.
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!form.dataset.confirm || window.confirm(form.dataset.confirm)) return;
  event.preventDefault();
  event.stopImmediatePropagation();
}, true);
