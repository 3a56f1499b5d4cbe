(function () {
  "use strict";
  function key(cell) {
    var t = cell.textContent.trim();
    var n = parseFloat(t);
    return isNaN(n) ? t.toLowerCase() : n;
  }
  function compare(x, y) {
    if (typeof x !== typeof y) return typeof x === "number" ? -1 : 1;
    return x < y ? -1 : x > y ? 1 : 0;
  }
  // Sortable tables: a click on a column's header sorts by it (numbers largest first), a second
  // click reverses; ties keep the file order.
  Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), function (table) {
    var head = table.tHead.rows[table.tHead.rows.length - 1];
    var body = table.tBodies[0];
    Array.prototype.forEach.call(body.rows, function (r, i) { r.dataset.i = i; });
    Array.prototype.forEach.call(head.cells, function (th, col) {
      th.classList.add("sort");
      th.tabIndex = 0;
      function sort() {
        var was = th.getAttribute("aria-sort");
        var dir = was === "descending" ? "ascending" : was === "ascending" ? "descending"
          : th.classList.contains("num") ? "descending" : "ascending";
        Array.prototype.forEach.call(head.cells, function (c) { c.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", dir);
        var sign = dir === "ascending" ? 1 : -1;
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          return compare(key(a.cells[col]), key(b.cells[col])) * sign || a.dataset.i - b.dataset.i;
        });
        var frag = document.createDocumentFragment();
        rows.forEach(function (r) { frag.appendChild(r); });
        body.appendChild(frag);
      }
      th.addEventListener("click", sort);
      th.addEventListener("keydown", function (e) { if (e.key === "Enter") sort(); });
    });
  });
  // Filters: a name, rows with undecided lines (or open branches), rows in the over-approximation.
  Array.prototype.forEach.call(document.querySelectorAll("form.filter"), function (form) {
    var table = document.getElementById(form.dataset.table);
    var shown = form.querySelector(".shown");
    function apply() {
      var q = form.elements.q.value.trim().toLowerCase();
      var flag = form.elements.flag.checked, over = form.elements.over.checked;
      var rows = table.tBodies[0].rows, n = 0;
      Array.prototype.forEach.call(rows, function (r) {
        var show = (!q || r.dataset.key.indexOf(q) >= 0) && (!flag || r.dataset.flag === "1")
          && (!over || r.dataset.over === "1");
        r.hidden = !show;
        if (show) n++;
      });
      shown.textContent = n + " of " + rows.length + " shown";
    }
    form.addEventListener("input", apply);
    form.addEventListener("change", apply);
    form.addEventListener("submit", function (e) { e.preventDefault(); });
    apply();
  });
  window.addEventListener("load", function () {
    document.body.dataset.loadMs = String(Math.round(performance.now()));
  });
})();
