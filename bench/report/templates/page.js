// puzzlebench report page: interactive tables (DataTables from window.pbDT) and the view of
// one instance (from window.PB_INSTANCES, set by instances.js), opened by links #i/PUZZLE/NAME.
// instances.js (every instance's data, megabytes for a large run) is loaded only when a view
// is first opened, by a script element (file:// refuses fetch), so the tables need not wait.
(() => {
  const DataTable = window.pbDT && window.pbDT.default;
  const PAGE = 25;

  // A filter matches whole names: "sat" finds the solver or kind "sat" and the formulations
  // "sat-tree", "sat-lazy[...]" (a name starts after a space, "/", "[", "," or "=" and ends at
  // one of those, "]" or "-"), never "cpsat" or "satx"; "sat-lazy" finds its variants
  // "sat-lazy[...]". Case-insensitive; "" shows every row.
  const EDGE_L = "(?:^|[\\s/\\[,=(])", EDGE_R = "(?=$|[\\s/\\[\\],=)\\-])";
  function whole(text) {
    const t = text.trim();
    if (!t) return "";
    const esc = t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    return new RegExp(EDGE_L + esc + EDGE_R, "i");
  }

  function filters(dt, el) {
    const cols = JSON.parse(el.dataset.filters || "[]");
    if (!cols.length) return;
    const bar = document.createElement("div");
    bar.className = "filters";
    for (const [i, label] of cols) {
      const lab = document.createElement("label");
      lab.textContent = label + " ";
      const input = document.createElement("input");
      input.type = "search";
      input.placeholder = "filter";
      input.dataset.column = String(i);
      input.addEventListener("input", () => dt.column(i).search(whole(input.value)).draw());
      lab.appendChild(input);
      bar.appendChild(lab);
    }
    const box = el.closest(".dt-container");
    box.parentNode.insertBefore(bar, box);
  }

  // A table inside a closed fold becomes interactive when the fold is first opened: the page's
  // first tables are ready without waiting for the status matrices and full rankings.
  function tables() {
    if (!DataTable) return;
    document.querySelectorAll("table.dt").forEach(el => {
      const fold = el.closest("details:not([open])");
      if (!fold) { table(el); return; }
      const open = () => { if (fold.open) { fold.removeEventListener("toggle", open); table(el); } };
      fold.addEventListener("toggle", open);
    });
  }

  function table(el) {
    const n = el.tBodies[0] ? el.tBodies[0].rows.length : 0;
    const paged = n > PAGE;
    const hidden = JSON.parse(el.dataset.hidden || "[]");
    const small = n <= 10 && !hidden.length;  // sortable, without controls
    const dt = new DataTable(el, {
      paging: paged, pageLength: PAGE, info: true, order: [], autoWidth: false,
      lengthMenu: [10, 25, 100, {label: "all", value: -1}],
      columnDefs: [{targets: hidden, visible: false}],
      layout: small ? {topStart: null, topEnd: null, bottomStart: null, bottomEnd: null} :
        {topStart: paged ? ["pageLength", "buttons"] : "buttons", topEnd: "search",
         bottomStart: "info", bottomEnd: paged ? "paging" : null},
      buttons: [{extend: "colvis", text: "Columns"}],
      language: {search: "Search all:", info: "rows _START_ to _END_ of _TOTAL_",
                 infoFiltered: "(filtered from _MAX_)"},
    });
    if (!small) filters(dt, el);
  }

  function esc(s) {
    return String(s).replace(/[&<>"]/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;",
                                                '"': "&quot;"})[c]);
  }

  // numbers and times by the report's one rule (bench/report/units.py): 3 significant
  // figures, positional, never an exponent, thousands separated from 1,000; a time in ms
  // below one second and in s from one second
  function num(v) {
    if (v === 0) return "0";
    const r = Number(v.toPrecision(3));
    if (Math.abs(r) >= 1000) return Math.round(r).toLocaleString("en-US");
    const dec = Math.max(0, 2 - Math.floor(Math.log10(Math.abs(r))));
    const s = r.toFixed(dec);
    return s.includes(".") ? s.replace(/0+$/, "").replace(/\.$/, "") : s;
  }
  function unit(v) { return Number(Math.abs(v).toPrecision(3)) < 1 ? [1000, "ms"] : [1, "s"]; }
  function dur(v) {
    if (v === null) return "–";
    if (v === 0) return "0 ms";
    if (Math.abs(v) < 1e-6) return v > 0 ? "< 0.001 ms" : "> -0.001 ms";
    const [f, u] = unit(v);
    return `${num(v * f)} ${u}`;
  }
  // an interval's end rounded outward to 3 significant figures (low down, high up)
  function outward(v, up) {
    if (v === 0 || !isFinite(v)) return v;
    const s = 10 ** (2 - Math.floor(Math.log10(Math.abs(v))));
    const x = Number((v * s).toFixed(6));
    return (up ? Math.ceil(x) : Math.floor(x)) / s;
  }
  function durRange(lo, hi) {
    const [f, u] = unit(Math.max(Math.abs(lo), Math.abs(hi)));
    return `[${num(outward(lo * f, false))}–${num(outward(hi * f, true))}] ${u}`;
  }

  const LETTERS = {S: "solved", I: "infeasible", T: "timeout", M: "memout", E: "error",
                   W: "wrong", D: "disagrees", N: "not run", K: "skipped"};

  function render(d, names) {
    const rows = d.rows.map(r => {
      const [p, st, ok, t, lo, hi, n, effort, peak, checked, known] = r;
      const pair = names[p];
      const spread = n > 1 && lo !== null ? durRange(lo, hi) : "";
      const status = [...st].map(c => LETTERS[c] || c).join(", ");
      const cls = st === "N" ? "notrun" : ok ? "" : "fail";  // not run: missing, no failure
      return `<tr class="${cls}"><td class="name">${esc(pair)}</td>` +
        `<td class="name st-${esc(st)}">${esc(status)}</td><td>${dur(t)}</td>` +
        `<td>${spread}</td><td>${n}</td><td class="name">${esc(effort)}</td>` +
        `<td>${peak === null ? "–" : peak}</td>` +
        `<td>${esc(checked)}</td><td>${known === "yes" ? "agrees" :
          known === "no" ? "differs" : ""}</td></tr>`;
    }).join("");
    return `<h2>${esc(d.puzzle)}: ${esc(d.instance)}</h2>` +
      `<p>${esc(d.group)}, ${esc(d.size)}; file <code>${esc(d.path)}</code>; ${esc(d.sol)}.</p>` +
      `<div class="iv-body"><figure class="iv-pic">${d.pic}` +
      `<figcaption>${esc(d.note)}</figcaption></figure>` +
      `<div class="scroll"><table class="plain"><thead><tr>` +
      `<th class="name">formulation / solver</th><th class="name">status</th>` +
      `<th title="build + solve, median over repeats and seeds">time</th>` +
      `<th title="lowest – highest over repeats and seeds">range</th>` +
      `<th title="tasks that ran: repeats x seeds (0: not run)">runs</th><th class="name" ` +
      `title="the solver's own effort, median over runs; for a pair that did not run, why">` +
      `effort / why not run</th>` +
      `<th title="peak memory of the task's process tree, forked template's pages included">` +
      `peak [MB]</th>` +
      `<th title="the rule verifier passed the answer">checked</th>` +
      `<th title="agreement with the instance's known solution (.sol)">.sol</th>` +
      `</tr></thead><tbody>${rows}</tbody></table></div></div>`;
  }

  let loading = null;
  function instanceData() {  // a promise of window.PB_INSTANCES (null: the file did not load)
    if (window.PB_INSTANCES) return Promise.resolve(window.PB_INSTANCES);
    if (!loading) {
      loading = new Promise(resolve => {
        const s = document.createElement("script");
        s.src = document.getElementById("iv").dataset.instances || "instances.js";
        s.onload = () => resolve(window.PB_INSTANCES || null);
        s.onerror = () => resolve(null);
        document.head.appendChild(s);
      });
    }
    return loading;
  }
  window.pbInstances = instanceData;

  async function view() {
    const box = document.getElementById("iv");
    const body = document.getElementById("iv-content");
    const h = decodeURIComponent(location.hash.slice(1));
    if (!h.startsWith("i/")) { box.hidden = true; return; }
    const data = (await instanceData()) || {views: {}, pairs: []};
    if (decodeURIComponent(location.hash.slice(1)) !== h) return;  // another view asked since
    const d = data.views[h.slice(2)];
    body.innerHTML = d ? render(d, data.pairs) :
      `<p>No data for ${esc(h.slice(2))} (instances.js missing or not loaded).</p>`;
    const pic = body.querySelector(".iv-pic svg");
    if (pic && pic.width.baseVal.value < 320) {  // a small grid drawn larger, never smaller
      pic.style.width = "320px";
      pic.style.height = "auto";
    }
    box.hidden = false;
    document.getElementById("iv-close").focus();
  }

  function close() {
    document.getElementById("iv").hidden = true;
    history.replaceState(null, "", location.pathname + location.search);
  }

  function moreColumns() {  // the verdict matrix's less important columns, on request
    document.querySelectorAll("button.more-cols").forEach(b => {
      const table = b.parentNode.querySelector("table.verdicts");
      b.addEventListener("click", () => {
        const open = table.classList.toggle("compact") === false;
        b.setAttribute("aria-pressed", String(open));
        b.textContent = open ? "fewer columns" : b.dataset.label;
      });
    });
  }

  tables();
  moreColumns();
  document.getElementById("iv-close").addEventListener("click", close);
  document.addEventListener("keydown", e => { if (e.key === "Escape") close(); });
  window.addEventListener("hashchange", view);
  view();
})();
