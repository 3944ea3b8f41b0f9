export { canonicalRecord, requireSealMode, SEAL_MODES, sealModeAvailable, type SealMode } from './canonical-record.js';
export { createSealer, sealText, type ChainState, type Sealer } from './chain.js';
export { buildCheckpoint, checkpointSchema, formatCheckpoint, githubProvenance, parseCheckpoint, type Checkpoint } from './checkpoint.js';
export { formatLink, linkDigest, MAX_LINK_BYTES, parseLink, ZERO_DIGEST } from './layout.js';
export { splitRawLines, type RawLine } from './raw-lines.js';
export { fileSink, sealFile, type SealFileRequest, type SealSink } from './seal-file.js';
export { formatVerdict, judge, verdictExitCode, type Verdict, type VerdictStatus } from './verdict.js';
export { readCheckpoint, verifyFile } from './verify-file.js';
export { createChainVerifier, type BrokenLink, type ChainResult } from './verify.js';
