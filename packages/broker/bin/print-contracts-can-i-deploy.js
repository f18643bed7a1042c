#!/usr/bin/env node
// Thin launcher: the command lives in dist/can-i-deploy-cli.js, built from src/can-i-deploy-cli.ts.
import '../dist/can-i-deploy-cli.js';
