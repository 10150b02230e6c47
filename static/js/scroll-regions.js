// A table wider than its card scrolls inside it (.table-responsive). Keyboard users reach such a
// region with Tab and scroll it with the arrow keys only when it is focusable, so the one that
// overflows gets tabindex 0 and a name (from its table's caption or first header); one that fits
// stays out of the tab order. Checked on load, on resize and after htmx swaps. No inline script: CSP.
(() => {
  const mark = () => {
    for (const region of document.querySelectorAll(".table-responsive")) {
      const scrolls = region.scrollWidth > region.clientWidth + 1;
      if (scrolls && !region.hasAttribute("tabindex")) {
        const header = region.querySelector("caption, thead th:not(:empty)");
        region.setAttribute("tabindex", "0");
        region.setAttribute("role", "region");
        region.setAttribute("aria-label", `Table${header ? `: ${header.textContent.trim()}` : ""}, scrolls sideways`);
      } else if (!scrolls && region.getAttribute("role") === "region") {
        for (const name of ["tabindex", "role", "aria-label"]) region.removeAttribute(name);
      }
    }
  };
  document.addEventListener("DOMContentLoaded", mark);
  window.addEventListener("resize", mark);
  document.addEventListener("htmx:afterSettle", mark);
})();
