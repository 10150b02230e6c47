// Filters that apply as soon as they change: a select in a form marked data-autosubmit sends the
// form (the queue's filters, the statistics' period). Without JavaScript, the form's button does.
// No inline script: CSP.
document.addEventListener("change", (event) => {
  const select = event.target;
  if (select.matches("form[data-autosubmit] select")) select.form.submit();
});
