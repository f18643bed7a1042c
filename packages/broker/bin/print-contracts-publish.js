#!/usr/bin/env node
// Thin launcher: the command lives in dist/publish-cli.js, built from src/publish-cli.ts.
import '../dist/publish-cli.js';
