#!/usr/bin/env node
// Thin launcher: the command lives in dist/stub/cli.js, built from src/stub/cli.ts.
import '../dist/stub/cli.js';
