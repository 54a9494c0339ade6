// node --import ./test/conformance/register-fs-glob-shim.mjs …conformance/dist/index.js — see fs-glob-shim.mjs.
import { register } from 'node:module';

register('./fs-glob-shim.mjs', import.meta.url);
