// Draws the charts a page declares with <canvas data-chart="..." data-source="<json_script id>">,
// on load and after every htmx swap (the benchmark panel is swapped in).
// Numbers in Norwegian format, like the rest of the dashboard: the benchmark's bar labels come
// formatted from the server (portal/formatting.py); counts on the axes and in tooltips use nb-NO
// grouping (a no-break space between thousands).
(function () {
  "use strict";

  var NB = new Intl.NumberFormat("nb-NO", { maximumFractionDigits: 0 });

  function count(value) {
    // Intl may use U+202F or U+00A0 between thousands; the dashboard uses U+00A0 everywhere.
    return NB.format(value).replace(/[\u202f\u2009 ]/g, "\u00a0").replace("\u2212", "-");
  }

  function readJson(id) {
    var node = document.getElementById(id);
    return node ? JSON.parse(node.textContent) : null;
  }

  function countAxis() {
    return { beginAtZero: true, ticks: { precision: 0, callback: function (value) { return count(value); } } };
  }

  var builders = {
    employment: function (canvas, points) {
      return {
        type: "line",
        data: {
          labels: points.map(function (p) { return p.label || p.date; }),
          datasets: [{ label: "Employees", data: points.map(function (p) { return p.count; }), stepped: true, borderColor: "#0d6efd", pointRadius: 2 }]
        },
        options: {
          maintainAspectRatio: false,
          plugins: {
            legend: { display: false },
            tooltip: { callbacks: { label: function (item) { return count(item.parsed.y) + " employees"; } } }
          },
          scales: { y: countAxis() }
        }
      };
    },
    benchmark: function (canvas, bars) {
      var own = canvas.dataset.ownBucket === "" ? null : Number(canvas.dataset.ownBucket);
      return {
        type: "bar",
        data: {
          labels: bars.map(function (b) { return b.label; }),
          datasets: [{
            label: "Companies",
            data: bars.map(function (b) { return b.count; }),
            backgroundColor: bars.map(function (b) { return b.id === own ? "#dc3545" : "#9ec5fe"; })
          }]
        },
        options: {
          maintainAspectRatio: false,
          plugins: {
            legend: { display: false },
            tooltip: {
              callbacks: {
                label: function (item) {
                  var n = item.parsed.y;
                  var text = count(n) + (n === 1 ? " company" : " companies");
                  return bars[item.dataIndex].id === own ? text + " (this company's bar)" : text;
                }
              }
            }
          },
          scales: { y: countAxis() }
        }
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
