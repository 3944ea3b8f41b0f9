import {
  BlobSASPermissions,
  BlobServiceClient,
  generateBlobSASQueryParameters,
  StorageSharedKeyCredential,
} from '@azure/storage-blob';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Azurite's documented development account (public, fixed, not a secret).
const ACCOUNT = 'devstoreaccount1';
const KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';
export const CONTAINER = 'actions-results';

/** Azurite's blob service on loopback with a temporary folder, started and stopped by the test. */
export class Azurite {
  private constructor(
    private readonly child: ChildProcess,
    private readonly folder: string,
    readonly url: string,
  ) {}

  static async start(): Promise<Azurite> {
    const folder = mkdtempSync(join(tmpdir(), 'ata-azurite-'));
    const bin = join('node_modules', 'azurite', 'dist', 'src', 'blob', 'main.js');
    // --disableTelemetry: otherwise Azurite tries to send usage data to Azure Monitor and, offline,
    // persists it under the OS temp dir (Microsoft-AzureMonitor-*), which outlives the test.
    const args = [bin, '--blobHost', '127.0.0.1', '--blobPort', '0', '--location', folder, '--skipApiVersionCheck', '--loose', '--disableTelemetry'];
    const child = spawn(process.execPath, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`azurite did not start: ${out}`)), 30_000);
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /listens on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      });
      child.on('exit', (code) => reject(new Error(`azurite exited (${code}): ${out}`)));
    });
    const azurite = new Azurite(child, folder, url);
    await azurite.service().getContainerClient(CONTAINER).createIfNotExists();
    return azurite;
  }

  service(): BlobServiceClient {
    return new BlobServiceClient(`${this.url}/${ACCOUNT}`, new StorageSharedKeyCredential(ACCOUNT, KEY));
  }

  /** A SAS URL for one blob, as the artifact service hands out. */
  signedUrl(blob: string, permissions: string): string {
    const sas = generateBlobSASQueryParameters(
      { containerName: CONTAINER, blobName: blob, permissions: BlobSASPermissions.parse(permissions), expiresOn: new Date(Date.now() + 3_600_000) },
      new StorageSharedKeyCredential(ACCOUNT, KEY),
    ).toString();
    return `${this.url}/${ACCOUNT}/${CONTAINER}/${blob.split('/').map(encodeURIComponent).join('/')}?${sas}`;
  }

  async read(blob: string): Promise<Buffer> {
    return this.service().getContainerClient(CONTAINER).getBlobClient(blob).downloadToBuffer();
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null) {
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => this.child.kill('SIGKILL'), 3000);
        this.child.once('exit', () => {
          clearTimeout(force);
          resolve();
        });
        this.child.kill('SIGTERM');
      });
    }
    rmSync(this.folder, { recursive: true, force: true });
  }
}
