extension DevToolsPage {
  /// The page's script: the tree, the state and its changes, the timeline, time travel, the
  /// plugins, the Act panel, and the socket that feeds them.
  static let script = """
    "use strict";
    const token = new URLSearchParams(location.search).get("token") || "";
    const $ = (id) => document.getElementById(id);
    const api = async (path, body) => {
      const response = await fetch(path, { method: body ? "POST" : "GET",
        headers: { "X-Patchbay-Token": token, "Content-Type": "application/json" },
        body: body ? JSON.stringify(body) : undefined });
      const text = await response.text();
      if (!response.ok) throw new Error(text);
      return response.headers.get("content-type").startsWith("application/json")
        ? JSON.parse(text) : text;
    };
    const view = { app: null, timeline: [], selected: null, state: null, highlight: new Set(),
      at: null, lastSeq: 0, selectedEntry: null, said: { send: "", swap: "" } };
    // What the Act panel last said, kept over its re-renders: a swap's own event re-renders the
    // panel, and may arrive after the swap's answer.
    function say(which, html) { view.said[which] = html; $(which + "Result").innerHTML = html; }

    // JSON Pointer (RFC 6901) into the held state: where an action's change goes.
    const tokens = (pointer) => pointer === "" ? [] :
      pointer.slice(1).split("/").map(t => t.replace(/~1/g, "/").replace(/~0/g, "~"));
    function applyChange(root, change) {
      const path = tokens(change.p);
      if (path.length === 0) return change.removed ? null : change.v;
      let parent = root;
      for (const key of path.slice(0, -1)) { parent = parent?.[key]; }
      if (parent == null) return root;
      const last = path[path.length - 1];
      if (change.removed) {
        if (Array.isArray(parent)) parent.length = Math.min(parent.length, Number(last));
        else delete parent[last];
      } else parent[last] = change.v;
      return root;
    }

    function renderJSON(value, pointer, key) {
      const label = key === undefined ? "" : `<span class="key">${esc(key)}</span>: `;
      const mark = view.highlight.has(pointer) ? " changed" : "";
      if (value !== null && typeof value === "object") {
        const entries = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
        const open = pointer.split("/").length < 4 ? " open" : "";
        const brackets = Array.isArray(value) ? `[${value.length}]` : `{${entries.length}}`;
        return `<details${open} data-p="${esc(pointer)}"><summary class="${mark}">${label}` +
          `<span class="dim">${brackets}</span></summary>` +
          entries.map(([k, v]) => renderJSON(v, pointer + "/" +
            String(k).replace(/~/g, "~0").replace(/\\//g, "~1"), k)).join("") + `</details>`;
      }
      const kind = typeof value === "string" ? "str" : typeof value === "number" ? "num" : "lit";
      return `<div class="row${mark}" data-p="${esc(pointer)}">${label}` +
        `<span class="${kind}">${esc(JSON.stringify(value))}</span></div>`;
    }
    const esc = (s) => String(s).replace(/[&<>"]/g,
      c => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));

    function renderTree() {
      const app = view.app;
      $("appname").textContent = app.name;
      $("mode").textContent = app.mode + (app.readOnly ? " · read-only" : "");
      const onStack = new Set([...app.stack, app.presented].filter(Boolean));
      $("tree").innerHTML = `<div class="dim">stack: ${esc(["root", ...app.stack].join(" › "))}` +
        (app.presented ? ` · presented ${esc(app.presented)}` : "") + `</div>` +
        app.instances.map(i => {
          const depth = i.path.split("/").length - 1;
          return `<div class="node${i.path === view.selected ? " selected" : ""}" ` +
            `data-path="${esc(i.path)}" style="margin-left:${depth * 12}px">` +
            `${esc(i.path)}${i.path === app.current ? " <span class=badge>on top</span>" : ""}` +
            (i.isolated ? `<span class="badge iso">isolated</span>` : "") +
            `<div class="meta">${esc(i.feature)} · gen ${i.generation} · ` +
            `${esc(i.plugin.split("/").pop())}</div></div>`;
        }).join("");
      for (const node of document.querySelectorAll("#tree .node"))
        node.onclick = () => select(node.dataset.path);
    }

    async function select(path) {
      view.selected = path;
      view.highlight = new Set();
      renderTree();
      await loadState();
      renderAct();
    }

    async function loadState() {
      if (!view.selected) return;
      if (view.at === null) {
        try { view.state = await api(`/api/state?path=${encodeURIComponent(view.selected)}`); }
        catch (e) { view.state = { error: e.message }; }
      } else {
        const whole = await api(`/api/state?at=${view.at}`);
        view.state = whole.features?.[view.selected] ?? null;
        const entry = view.timeline.find(e => e.seq === view.at && e.kind === "action");
        view.highlight = new Set(entry && entry.path === view.selected
          ? (entry.changes ?? []).map(c => c.p) : []);
      }
      renderState();
    }

    function renderState() {
      $("stateView").innerHTML = view.selected
        ? (view.state === null ? `<span class="dim">${esc(view.selected)} did not exist at ` +
          `this step</span>` : renderJSON(view.state, ""))
        : `<span class="dim">select an instance</span>`;
      const steps = view.app?.steps ?? 0;
      $("scrub").max = steps;
      if (view.at === null) $("scrub").value = steps;
      $("stepLabel").textContent = view.at === null ? `live (${steps} steps)` : `${view.at} / ${steps}`;
    }

    function sourceOf(e) { return e.kind === "action" ? e.source : e.kind; }
    function renderLog() {
      const query = $("search").value.toLowerCase();
      const source = $("sourceFilter").value;
      const rows = view.timeline.filter(e => (!source || sourceOf(e) === source) &&
        (!query || JSON.stringify(e).toLowerCase().includes(query)));
      $("count").textContent = `${rows.length} of ${view.timeline.length}`;
      $("log").innerHTML = rows.slice(-2000).map(e => {
        const what = e.text ?? "";
        const where = e.path ?? e.feature ?? "";
        const changed = (e.changes ? e.changes.map(c => c.p || "/").join(" ") : "") +
          (e.folded ? ` (the last ${e.folded} actions' here)` : "");
        // How long the reduce took, and the effects it left running.
        const reduce = (e.ns != null ? `${(e.ns / 1000).toFixed(1)} µs` : "") +
          (e.effects ? ` · +${e.effects} effect${e.effects > 1 ? "s" : ""}` : "");
        return `<tr class="entry ${e.kind}${e.seq === view.selectedEntry ? " selected" : ""}" ` +
          `data-seq="${e.seq}"><td>${e.seq}</td><td>${(e.t / 1000).toFixed(3)}</td>` +
          `<td><span class="src">${esc(sourceOf(e))}</span></td><td>${esc(where)}</td>` +
          `<td>${esc(what)}</td><td class="dim">${esc(reduce)}</td>` +
          `<td class="dim">${esc(changed)}</td></tr>`;
      }).join("");
      for (const row of document.querySelectorAll("#log tr.entry"))
        row.onclick = () => travel(Number(row.dataset.seq), true);
    }

    async function travel(step, fromLog) {
      view.selectedEntry = step;
      view.at = step >= (view.app?.steps ?? 0) && !fromLog ? null : step;
      const entry = view.timeline.find(e => e.seq === step && e.kind === "action");
      if (fromLog && entry && entry.path) view.selected = entry.path;
      renderTree();
      await loadState();
      renderLog();
      if (fromLog) show("state");
    }

    function renderPlugins() {
      $("plugins").innerHTML = (view.app?.plugins ?? []).map(p => `<div class="card">` +
        (p.retired ? `<b class="dim">no instance runs it now</b>`
          : `<b>${esc(p.id)}</b> <span class="dim">${esc(p.version)} · generation ` +
            `${p.generation}</span>`) +
        `<div class="dim">${esc(p.file)}</div>` +
        // An isolated plugin's process: what it holds and has spent.
        (p.process ? `<div class="proc">process ${p.process.pid} · ` +
          `${(p.process.rss / 1048576).toFixed(1)} MB resident · ${p.process.cpu} s CPU</div>` : "") +
        (p.history.length ? `<table>${p.history.map(h => `<tr><td>${(h.t / 1000).toFixed(3)}` +
          `</td><td>${esc(h.event)}</td><td>${esc(h.text)}</td></tr>`).join("")}</table>`
          : `<div class="dim">no swaps, crashes or rollbacks yet</div>`) + `</div>`).join("");
    }

    function renderAct() {
      const app = view.app;
      if (!app) return;
      if (app.readOnly || !app.mode.startsWith("live")) {
        $("act").innerHTML = `<span class="dim">${app.readOnly ? "read-only (--devtools-read-only)"
          : "a recording: nothing to act on"}</span>`;
        return;
      }
      const instance = app.instances.find(i => i.path === view.selected);
      if (!instance) { $("act").innerHTML = `<span class="dim">select an instance</span>`; return; }
      const actions = instance.actions.filter(a => !a.sentBy);
      $("act").innerHTML = `<div class="card"><b>send to ${esc(instance.path)}</b><div>` +
        actions.map((a, n) => `<form class="send" data-n="${n}" style="margin:6px 0">` +
          `<button class="act">${esc(a.name)}</button> ` + a.fields.map(f =>
            `<label>${esc(f.name)} <input name="${esc(f.name)}" data-type="${esc(f.type)}" ` +
            `placeholder="${esc(f.type)}" size="8"></label> `).join("") +
          `<span class="dim">${esc(a.summary)}</span></form>`).join("") +
        `</div><div id="sendResult">${view.said.send}</div></div>` +
        `<div class="card"><b>swap ${esc(instance.feature)}</b> to plugin ` +
        `<input id="swapPlugin" placeholder="CounterAlt or a path" size="24"> ` +
        `<button class="act" id="swapButton">swap</button><div id="swapResult">${view.said.swap}</div></div>`;
      for (const form of document.querySelectorAll("form.send")) {
        form.onsubmit = async (event) => {
          event.preventDefault();
          const action = actions[Number(form.dataset.n)];
          const args = [...form.querySelectorAll("input")].map(input => {
            const quoted = input.dataset.type === "String" ? JSON.stringify(input.value) : input.value;
            return `${input.name}: ${quoted}`;
          });
          const text = action.name + (args.length ? `(${args.join(", ")})` : "");
          try { await api("/api/send", { path: instance.path, action: text });
            say("send", `<span class="ok">sent ${esc(text)}</span>`); }
          catch (e) { say("send", `<span class="err">${esc(e.message)}</span>`); }
        };
      }
      $("swapButton").onclick = async () => {
        try { await api("/api/swap", { feature: instance.feature, plugin: $("swapPlugin").value });
          say("swap", `<span class="ok">swapped</span>`); }
        catch (e) { say("swap", `<span class="err">${esc(e.message)}</span>`); }
      };
    }

    function show(tab) {
      for (const b of document.querySelectorAll("nav.tabs button"))
        b.classList.toggle("active", b.dataset.tab === tab);
      for (const s of document.querySelectorAll("main section"))
        s.classList.toggle("active", s.id === tab);
    }

    async function reload() {
      view.app = await api("/api/app");
      view.timeline = await api("/api/timeline");
      view.lastSeq = view.app.steps;
      if (!view.selected || !view.app.instances.some(i => i.path === view.selected))
        view.selected = view.app.current;
      renderTree(); renderLog(); renderPlugins(); renderAct();
      await loadState();
    }

    """
}
