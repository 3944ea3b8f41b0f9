import { runCli } from './cli/main.js';

/** The CLI entry: argv in, exit code out. Everything else lives in src/cli/. */
const code = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  cwd: process.cwd(),
  env: process.env,
});
process.exitCode = code;
