// Starts the built site for browser tests on a fresh embedded database in test-results/e2e-data (or on the
// PostgreSQL database E2E_DATABASE_URL names),
// with a real SMTP server that receives its mail. Tests read the received mails over HTTP
// (GET http://127.0.0.1:<PORT+1>/mails.json?to=…), parsed, as a member's mail program would. Text messages
// go to the server's dev SMS outbox (no SMS_URL); GET …/sms.json?to=+31… reads them from there, as a phone would.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:http';
import { spawn } from 'node:child_process';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';

// E2E_KEEP_DATA=1 starts on a data folder seeded before (tests/e2e/global-setup.ts copies one per worker).
const dataDir = process.env.E2E_DATA_DIR ?? 'test-results/e2e-data';
if (process.env.E2E_KEEP_DATA !== '1') rmSync(dataDir, { recursive: true, force: true });
const port = Number(process.env.PORT ?? 3210);

const mails = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, session, callback) {
    simpleParser(stream)
      .then((m) => {
        mails.push({
          id: String(mails.length + 1),
          kind: m.headers.get('x-mail-type') ?? '',
          to: session.envelope.rcptTo.map((r) => r.address).join(', '),
          subject: m.subject ?? '',
          text: m.text ?? '',
          html: typeof m.html === 'string' ? m.html : '',
          headers: Object.fromEntries([...m.headers].map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])),
        });
        callback();
      })
      .catch(callback);
  },
});
await new Promise((resolve) => smtp.listen(0, '127.0.0.1', resolve));
const smtpPort = smtp.server.address().port;

const smsDir = join(dataDir, 'sms-outbox');
const readSms = () => {
  try {
    return readdirSync(smsDir).filter((f) => f.endsWith('.json')).sort().reverse().map((f) => JSON.parse(readFileSync(join(smsDir, f), 'utf8')));
  } catch {
    return [];
  }
};

const mailbox = createServer((req, res) => {
  const url = new URL(req.url, 'http://localhost');
  if (url.pathname === '/sms.json') {
    const to = url.searchParams.get('to');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ messages: readSms().filter((m) => !to || m.to === to) }));
    return;
  }
  const to = url.searchParams.get('to');
  const list = mails.filter((m) => !to || m.to.toLowerCase().includes(to.toLowerCase())).reverse();
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ mails: list }));
});
await new Promise((resolve) => mailbox.listen(port + 1, '127.0.0.1', resolve));

const child = spawn(process.execPath, ['build/server/main.js'], {
  stdio: 'inherit',
  // TRUST_PROXY lets a test that creates many members give each its own address for the rate limits. The dev
  // viewers are on as for local work (DEV_TOOLS), though behind TRUST_PROXY they answer nobody: tests read mail
  // and text messages from the mailbox above.
  env: {
    ...process.env, DATA_DIR: dataDir, NODE_ENV: 'production', LOG_LEVEL: 'error', DATABASE_URL: process.env.E2E_DATABASE_URL ?? '', SEED_DEMO: 'always', TRUST_PROXY: '1', DEV_TOOLS: '1',
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, MAIL_FROM: 'no-reply@amora.example',
    // Browser tests run two sites and their browsers side by side on a small machine, on purpose busier than a site
    // would be: admission control's load signals (answer times, event-loop delay) would refuse requests the tests make.
    // It keeps its fixed limit of requests at once; its adaptive part is tested by server/http/admission.test.ts and
    // npm run bench -- overload.
    ADMISSION_TARGET_MS: '0', ADMISSION_MAX_DELAY_MS: '0',
  },
});
const stop = (signal) => {
  child.kill(signal);
  smtp.close();
  mailbox.close();
};
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stop(signal));
child.on('exit', (code) => process.exit(code ?? 0));
