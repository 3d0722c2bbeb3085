// xterm.js headless as a live terminal for the realterm rig (tests/realterm/xtermjs_term.py).
//
// The Python side owns the pty. It sends framed messages on stdin: one type byte, a 4-byte
// big-endian length, the payload.
//   D <bytes>        pty output for the terminal to parse
//   R "<cols> <rows>" resize, once every byte sent before it was parsed; answered with A
//   T ""             dump, once every byte sent before it was parsed; answered with T <json>
// and reads the same framing on stdout: D <bytes> is what the terminal answers (cursor position
// reports and other onData replies) for the pty, A acknowledges a resize, T carries the dump.
// Messages are handled strictly in order, as a real terminal reads its pty.
import pkg from "@xterm/headless";
import unicode from "@xterm/addon-unicode11";

const { Terminal } = pkg;
const { Unicode11Addon } = unicode;

const [cols, rows] = process.argv.slice(2).map(Number);
const term = new Terminal({ cols, rows, scrollback: 100000, allowProposedApi: true });
// Unicode 11 widths, as VS Code and every xterm.js host that cares about emoji load them.
term.loadAddon(new Unicode11Addon());
term.unicode.activeVersion = "11";

function send(type, payload) {
  const head = Buffer.alloc(5);
  head.write(type, 0, "latin1");
  head.writeUInt32BE(payload.length, 1);
  process.stdout.write(Buffer.concat([head, payload]));
}

term.onData((data) => send("D", Buffer.from(data, "utf8")));
term.onBinary((data) => send("D", Buffer.from(data, "latin1")));

function dump() {
  const buffer = term.buffer.active;
  const lines = [];
  const wrapped = [];
  for (let i = 0; i < buffer.length; i++) {
    const line = buffer.getLine(i);
    lines.push(line ? line.translateToString(true) : "");
    wrapped.push(line ? line.isWrapped : false);
  }
  return JSON.stringify({
    rows: lines,
    wrapped,
    cursor: [buffer.cursorX, buffer.baseY + buffer.cursorY],
    size: [term.cols, term.rows],
  });
}

let chain = Promise.resolve();
function handle(type, payload) {
  chain = chain.then(
    () =>
      new Promise((resolve) => {
        if (type === "D") {
          term.write(payload, resolve);
        } else if (type === "R") {
          const [c, r] = payload.toString("latin1").split(" ").map(Number);
          term.resize(c, r);
          send("A", Buffer.alloc(0));
          resolve();
        } else if (type === "T") {
          send("T", Buffer.from(dump(), "utf8"));
          resolve();
        } else {
          resolve();
        }
      }),
  );
}

let pending = Buffer.alloc(0);
process.stdin.on("data", (chunk) => {
  pending = Buffer.concat([pending, chunk]);
  while (pending.length >= 5) {
    const length = pending.readUInt32BE(1);
    if (pending.length < 5 + length) break;
    const type = pending.toString("latin1", 0, 1);
    handle(type, pending.subarray(5, 5 + length));
    pending = pending.subarray(5 + length);
  }
});
process.stdin.on("end", () => chain.then(() => process.exit(0)));
