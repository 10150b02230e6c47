// Draws the charts a page declares with <canvas data-chart="..." data-source="<json_script id>">,
// on load and after every htmx swap (the benchmark panel is swapped in).
(function () {
  "use strict";

  function readJson(id) {
    var node = document.getElementById(id);
    return node ? JSON.parse(node.textContent) : null;
  }

  var builders = {
    employment: function (canvas, points) {
      return {
        type: "line",
        data: {
          labels: points.map(function (p) { return p.date; }),
          datasets: [{ label: "Employees", data: points.map(function (p) { return p.count; }), stepped: true, borderColor: "#0d6efd", pointRadius: 2 }]
        },
        options: { maintainAspectRatio: false, plugins: { legend: { display: false } }, scales: { y: { beginAtZero: true } } }
      };
    },
    benchmark: function (canvas, buckets) {
      var own = canvas.dataset.ownBucket === "" ? null : Number(canvas.dataset.ownBucket);
      var shown = buckets.filter(function (b) { return b.id !== -1; });
      return {
        type: "bar",
        data: {
          labels: shown.map(function (b) {
            if (b.name === "underflow") { return "< " + b.upper; }
            if (b.name === "overflow") { return "≥ " + b.lower; }
            return b.lower + " – " + b.upper;
          }),
          datasets: [{
            label: "Companies",
            data: shown.map(function (b) { return b.count; }),
            backgroundColor: shown.map(function (b) { return b.id === own ? "#dc3545" : "#9ec5fe"; })
          }]
        },
        options: { maintainAspectRatio: false, plugins: { legend: { display: false } }, scales: { y: { beginAtZero: true } } }
      };
    }
  };

  function draw(root) {
    if (typeof Chart === "undefined") { return; }
    Chart.defaults.animation = false;  // calm, and a chart is final the moment it is drawn
    root.querySelectorAll("canvas[data-chart]").forEach(function (canvas) {
      if (canvas.dataset.drawn) { return; }
      var build = builders[canvas.dataset.chart];
      var data = readJson(canvas.dataset.source);
      if (!build || !data) { return; }
      new Chart(canvas, build(canvas, data));
      canvas.dataset.drawn = "1";
    });
  }

  document.addEventListener("DOMContentLoaded", function () { draw(document); });
  document.addEventListener("htmx:afterSwap", function (event) { draw(event.target); });
})();
