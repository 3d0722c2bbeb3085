// xterm.js 6 headless probe: reads {scripts: [{columns, rows, steps}]} as JSON on stdin, prints {results: [snaps]}.
// Steps: ["feed", base64 bytes] | ["resize", columns, rows] | ["snap"].  Bytes are fed as written
// (the caller already turned LF into CR LF as a pty with onlcr would).
const { Terminal } = require("./node/node_modules/@xterm/headless");

function snapshot(term) {
  const buffer = term.buffer.active;
  const lines = [];
  const wrapped = [];
  for (let i = 0; i < buffer.length; i++) {
    const line = buffer.getLine(i);
    lines.push(line.translateToString(true));
    wrapped.push(line.isWrapped);
  }
  return {
    history: lines.slice(0, buffer.baseY),
    screen: lines.slice(buffer.baseY, buffer.baseY + term.rows),
    wrapped: wrapped.slice(0, buffer.baseY + term.rows),
    cursor: [buffer.cursorX, buffer.cursorY],
    size: [term.cols, term.rows],
  };
}

async function main() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  const results = [];
  for (const spec of JSON.parse(Buffer.concat(chunks).toString("utf8")).scripts) {
    const term = new Terminal({
      cols: spec.columns, rows: spec.rows, scrollback: 100000, allowProposedApi: true,
    });
    const snaps = [];
    for (const step of spec.steps) {
      if (step[0] === "feed") {
        await new Promise((resolve) => term.write(Buffer.from(step[1], "base64"), resolve));
      } else if (step[0] === "resize") {
        term.resize(step[1], step[2]);
      } else if (step[0] === "snap") {
        snaps.push(snapshot(term));
      }
    }
    results.push(snaps);
    term.dispose();
  }
  process.stdout.write(JSON.stringify({ results }));
}

main();
