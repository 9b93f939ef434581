// Validates Kubernetes manifests offline against the API schema, as the kubernetes-models
// package ships it (the OpenAPI schema of the Kubernetes API, compiled to validators): each
// document by its apiVersion and kind. Prints one line per document; exits 1 if any is invalid.
// Usage: node validate.mjs FILE.yaml...  (NODE_PATH-free: run from the npm install's directory)
import { readFileSync } from 'node:fs';
import yaml from 'js-yaml';

async function modelFor(apiVersion, kind) {
  const group = apiVersion.includes('/') ? apiVersion : `v1`;  // core: "v1"
  const mod = await import(`kubernetes-models/${group}`);
  if (!mod[kind]) throw new Error(`no ${kind} in ${apiVersion}`);
  return mod[kind];
}

let bad = 0;
for (const file of process.argv.slice(2)) {
  for (const doc of yaml.loadAll(readFileSync(file, 'utf8'))) {
    if (!doc) continue;
    const what = `${file}: ${doc.kind}/${doc.metadata?.name}`;
    try {
      const Model = await modelFor(doc.apiVersion, doc.kind);
      new Model(doc).validate();
      console.log(`${what}: valid ${doc.apiVersion} ${doc.kind}`);
    } catch (e) {
      bad += 1;
      console.log(`${what}: INVALID: ${e.message.split('\n')[0]}`);
    }
  }
}
process.exit(bad ? 1 : 0);
