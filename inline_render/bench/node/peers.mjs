// The Node peers of `python -m inline_render bench --peers`: pi-tui and Ink replay the rows our W1 (or W1S) run
// showed, update by update, into a byte-counting fake stdout (80x24, a TTY), each update timed with
// process.cpuUsage() (user + system CPU, as Python's process_time_ns).
//
//   NODE_ENV=production node peers.mjs PEER INPUT.json     PEER: pi-tui | ink | ink-incremental
//
// INPUT.json (written by inline_render/bench/peers_node.py): {"columns", "rows", "warm", "history": [row...],
// "updates": [{"i": [row...], "v": [row...], "c": [y, x, offset]}...]}; a row is one terminal line, already
// wrapped, its styles as SGR escapes; "history" is what our run had inserted into scrollback before the measured
// updates, "i" the rows an update inserts, "v" the viewport after it, "c" the cursor (row, column, and where in
// the string of row y the cursor column starts).
//
// Every renderer draws every update: pi-tui's 16 ms render throttle is bypassed by calling tui.doRender(), what
// its timer calls; Ink's 30 fps throttle by awaiting waitUntilRenderFlush() after rerender(), which flushes the
// throttled render and write.  The first `warm` updates are replayed first on a throwaway instance (same history),
// so that the JIT has compiled the paths the measured instance then takes.
//
// Prints one JSON object: the peer, its version, per-update CPU microseconds and bytes, their medians, and the
// measured instance's whole output (for the pyte check on the Python side).
import { readFileSync } from "node:fs";
import { Readable, Writable } from "node:stream";

class FakeStdout extends Writable {
    constructor(columns, rows, keep) {
        super({ decodeStrings: false });
        this.columns = columns;
        this.rows = rows;
        this.isTTY = true;
        this.bytes = 0;
        this.chunks = keep ? [] : null;
    }

    _write(chunk, _encoding, callback) {
        const text = typeof chunk === "string" ? chunk : chunk.toString("utf8");
        this.bytes += Buffer.byteLength(text, "utf8");
        if (this.chunks) this.chunks.push(text);
        callback();
    }

    getColorDepth() {
        return 4;
    }

    hasColors() {
        return true;
    }
}

// pi-tui's Terminal interface, writing what its ProcessTerminal writes, to the fake stdout.
class FakeTerminal {
    constructor(out) {
        this.out = out;
    }
    start() {}
    stop() {}
    async drainInput() {}
    write(data) {
        this.out.write(data);
    }
    get columns() {
        return this.out.columns;
    }
    get rows() {
        return this.out.rows;
    }
    get kittyProtocolActive() {
        return false;
    }
    moveBy(lines) {
        if (lines > 0) this.write(`\x1b[${lines}B`);
        else if (lines < 0) this.write(`\x1b[${-lines}A`);
    }
    hideCursor() {
        this.write("\x1b[?25l");
    }
    showCursor() {
        this.write("\x1b[?25h");
    }
    clearLine() {
        this.write("\x1b[K");
    }
    clearFromCursor() {
        this.write("\x1b[J");
    }
    clearScreen() {
        this.write("\x1b[2J\x1b[H");
    }
    setTitle(title) {
        this.write(`\x1b]0;${title}\x07`);
    }
    setProgress() {}
}

function cpuMicros(start) {
    const used = process.cpuUsage(start);
    return used.user + used.system;
}

// ------------------------------------------------------------------------------------------------ pi-tui

async function piTui(input, updates, keep) {
    const { TUI, CURSOR_MARKER } = await import("@mariozechner/pi-tui");
    const out = new FakeStdout(input.columns, input.rows, keep);
    // A chat app's shape in pi-tui: the transcript (every row so far, as a Text component caches its lines) and,
    // under it, the live rows; pi-tui renders all of them and diffs them with the previous render's lines.
    const transcript = { rows: [...input.history], render: () => transcript.rows, invalidate() {} };
    const live = { rows: [], render: () => live.rows, invalidate() {} };
    const show = (update) => {
        const [y, , offset] = update.c;
        const rows = [...update.v];
        if (y < rows.length) rows[y] = rows[y].slice(0, offset) + CURSOR_MARKER + rows[y].slice(offset);
        live.rows = rows;
    };
    const tui = new TUI(new FakeTerminal(out));
    tui.addChild(transcript);
    tui.addChild(live);
    tui.start();
    show(updates[0]);
    tui.doRender();
    const draw = (update) => {
        for (const row of update.i) transcript.rows.push(row);
        show(update);
        const before = out.bytes;
        const start = process.cpuUsage();
        tui.doRender(); // what the 16 ms throttle's timer calls
        return [cpuMicros(start), out.bytes - before];
    };
    return { out, draw: async (update) => draw(update), stop: () => tui.stop() };
}

// ------------------------------------------------------------------------------------------------ Ink

const HISTORY_CHUNK = 200;

async function ink(input, updates, keep, incremental) {
    const React = (await import("react")).default;
    const { render, Box, Static, Text, useCursor } = await import("ink");
    const h = React.createElement;
    const out = new FakeStdout(input.columns, input.rows, keep);
    const line = (row, key) => h(Text, { key }, row === "" ? " " : row);
    // Claude Code's shape: finished rows in <Static> (written once, above), the live rows in a column under it,
    // the composer's cursor placed with useCursor().
    function View({ history, update }) {
        const { setCursorPosition } = useCursor();
        setCursorPosition({ x: update.c[1], y: update.c[0] });
        return h(
            React.Fragment,
            null,
            h(Static, { items: history }, (row, index) => line(row, index)),
            h(Box, { flexDirection: "column" }, update.v.map(line)),
        );
    }
    let history = [];
    const app = render(h(View, { history, update: updates[0] }), {
        stdout: out,
        stdin: new Readable({ read() {} }),
        stderr: new FakeStdout(input.columns, input.rows, false),
        debug: false,
        exitOnCtrlC: false,
        patchConsole: false,
        interactive: true, // not the CI detection (is-in-ci): a CI machine would make it write only at unmount
        incrementalRendering: incremental,
    });
    await app.waitUntilRenderFlush();
    // The history arrives as a session's would, a few hundred rows at a time: one frame of 15,000 <Static> rows
    // would take Ink seconds and half a gigabyte, a cost no chat pays.
    for (let start = 0; start < input.history.length; start += HISTORY_CHUNK) {
        history = history.concat(input.history.slice(start, start + HISTORY_CHUNK));
        app.rerender(h(View, { history, update: updates[0] }));
        await app.waitUntilRenderFlush();
    }
    const draw = async (update) => {
        if (update.i.length) history = history.concat(update.i); // a new array, as React state would be
        const element = h(View, { history, update });
        const before = out.bytes;
        const start = process.cpuUsage();
        app.rerender(element);
        await app.waitUntilRenderFlush(); // flushes the 30 fps throttle: this update is drawn now
        return [cpuMicros(start), out.bytes - before];
    };
    return { out, draw, stop: () => app.unmount() };
}

// ------------------------------------------------------------------------------------------------ main

const PEERS = {
    "pi-tui": (input, updates, keep) => piTui(input, updates, keep),
    ink: (input, updates, keep) => ink(input, updates, keep, false),
    "ink-incremental": (input, updates, keep) => ink(input, updates, keep, true),
};

function median(values) {
    const sorted = [...values].sort((a, b) => a - b);
    const middle = sorted.length >> 1;
    return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function version(name) {
    const url = new URL(`./node_modules/${name}/package.json`, import.meta.url);
    return JSON.parse(readFileSync(url, "utf8")).version;
}

async function main() {
    const [peer, path] = process.argv.slice(2);
    if (!(peer in PEERS) || !path) {
        process.stderr.write(`usage: node peers.mjs (${Object.keys(PEERS).join(" | ")}) INPUT.json\n`);
        process.exit(2);
    }
    const input = JSON.parse(readFileSync(path, "utf8"));
    const updates = input.updates;
    const warm = await PEERS[peer](input, updates, false);
    for (const update of updates.slice(0, input.warm)) await warm.draw(update);
    warm.stop();
    const run = await PEERS[peer](input, updates, true);
    const us = [];
    const bytes = [];
    for (const update of updates) {
        const [micros, written] = await run.draw(update);
        us.push(micros);
        bytes.push(written);
    }
    const output = run.out.chunks.join("");
    run.stop();
    const own = peer === "pi-tui" ? { "pi-tui": version("@mariozechner/pi-tui") } : { ink: version("ink"), react: version("react") };
    const versions = { ...own, node: process.version };
    const result = { peer, versions, us_median: median(us), bytes_median: median(bytes), us, bytes, output };
    process.stdout.write(JSON.stringify(result) + "\n");
}

await main();
