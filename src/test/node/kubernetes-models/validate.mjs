#!/usr/bin/env node
/*
 * Validates Kubernetes objects against the Kubernetes OpenAPI schemas that the npm package
 * kubernetes-models carries, with its own validator: new Job(object).validate().
 *
 *   node validate.mjs OBJECTS.json
 *
 * OBJECTS.json is an array of Kubernetes objects (each with apiVersion, kind, metadata). Each one is
 * checked by the model class of its apiVersion and kind (kubernetes-models/<group>/<version>, or
 * kubernetes-models/v1 for the core group), whose apiVersion and kind must be the object's. An
 * object whose apiVersion and kind have no model class is "unknown", never passed over: it is an
 * object of a kind Kubernetes 1.36 does not serve, or one of a custom resource, which this script
 * cannot judge (the caller checks custom resources against their CRDs instead).
 *
 * It prints one JSON document: {"package", "kubernetesVersion", "results": [{"index", "verdict":
 * "valid" | "invalid" | "unknown", "errors": [...]}]}, one result per object in input order, and
 * exits 0 when every object is valid, 1 otherwise, 2 when it cannot read its input.
 *
 * What it does not check: unknown fields. Kubernetes' OpenAPI schemas leave additionalProperties
 * open, so a misspelt field passes here (an API server would drop it, with a warning). Nor does it
 * check what only the API server's validation code checks (names as DNS labels, immutable fields,
 * cross-field rules without x-kubernetes-validations).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

/*
 * The Kubernetes version whose schemas kubernetes-models 5.1.0 carries: its 5.0.0 release "Update to
 * Kubernetes v1.36.0" (CHANGELOG.md of tommy351/kubernetes-models-ts, first-party/
 * kubernetes-models); 5.0.1 to 5.1.0 change packaging only. Its generator merges the latest
 * version's spec over older ones, so APIs removed before 1.36 are still there as well.
 */
const KUBERNETES_VERSION = "1.36.0";
const PACKAGE = "kubernetes-models";

/** "batch/v1" or "v1": a group (DNS subdomain) and a version, nothing that could walk the package's folders. */
const API_VERSION = /^(?:[a-z0-9]([a-z0-9.-]*[a-z0-9])?\/)?v[0-9]+(?:(?:alpha|beta)[0-9]+)?$/;

async function modelOf(apiVersion, kind) {
    if (typeof apiVersion !== "string" || !API_VERSION.test(apiVersion) || typeof kind !== "string") {
        return null;
    }
    let module;
    try {
        module = await import(`${PACKAGE}/${apiVersion}`);
    } catch (e) {
        if (e.code === "ERR_PACKAGE_PATH_NOT_EXPORTED" || e.code === "ERR_MODULE_NOT_FOUND") {
            return null;
        }
        throw e;
    }
    const model = Object.hasOwn(module, kind) ? module[kind] : null;
    return typeof model === "function" && model.apiVersion === apiVersion && model.kind === kind ? model : null;
}

function describe(error) {
    const where = error.instancePath || "/";
    const message = error.message ?? error.keyword;
    return `${where}: ${message} ${JSON.stringify(error.params ?? {})}`;
}

async function validate(object) {
    if (object === null || typeof object !== "object" || Array.isArray(object)) {
        return { verdict: "invalid", errors: ["/: not an object"] };
    }
    const model = await modelOf(object.apiVersion, object.kind);
    if (model === null) {
        return {
            verdict: "unknown",
            errors: [`no model class for apiVersion ${JSON.stringify(object.apiVersion)}, kind ${JSON.stringify(object.kind)} in ${PACKAGE} (Kubernetes ${KUBERNETES_VERSION})`],
        };
    }
    try {
        new model(object).validate();
        return { verdict: "valid", errors: [] };
    } catch (e) {
        if (!Array.isArray(e.errors)) {
            throw e;
        }
        return { verdict: "invalid", errors: e.errors.map(describe) };
    }
}

async function main(args) {
    if (args.length !== 1) {
        process.stderr.write("usage: node validate.mjs OBJECTS.json\n");
        return 2;
    }
    let objects;
    try {
        objects = JSON.parse(readFileSync(args[0], "utf8"));
    } catch (e) {
        process.stderr.write(`cannot read ${args[0]}: ${e.message}\n`);
        return 2;
    }
    if (!Array.isArray(objects)) {
        process.stderr.write(`${args[0]} is not a JSON array of objects\n`);
        return 2;
    }
    const results = [];
    for (const [index, object] of objects.entries()) {
        results.push({ index, ...(await validate(object)) });
    }
    const version = createRequire(import.meta.url)(`${PACKAGE}/package.json`).version;
    process.stdout.write(
        JSON.stringify({ package: `${PACKAGE}@${version}`, kubernetesVersion: KUBERNETES_VERSION, results }) + "\n",
    );
    return results.every((r) => r.verdict === "valid") ? 0 : 1;
}

process.exitCode = await main(process.argv.slice(2));
