package io.trainplane.local.iam;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Every request IAM was asked in the simulated account, with its decision: the user at the
 * command line is allowed everything, a role gets what {@code policies} decides. What
 * {@code trainplane run --audit-log FILE} writes, one JSON object a line.
 */
public final class AuditLog implements Authorizer {
    /** Set (by the build) to a directory: every log judged by the stack's own policies is kept there, for the iam-simulate replay. */
    public static final String ARCHIVE_PROPERTY = "trainplane.iam.audit.dir";

    private static final AtomicInteger ARCHIVED = new AtomicInteger();

    private volatile Authorizer policies;
    private volatile boolean stackPolicies = true;
    private final List<AuditEntry> entries = new ArrayList<>();

    public AuditLog(Authorizer policies) {
        this.policies = policies;
    }

    /** Judges from now on by other policies (a test that takes a statement away, say); such a log is not archived. */
    public void judgeBy(Authorizer other) {
        this.policies = other;
        this.stackPolicies = false;
    }

    @Override
    public AuditEntry authorize(Caller caller, IamRequest request) {
        AuditEntry entry = caller.isUser()
                ? AuditEntry.of(caller, request, Decision.Allowed, null)
                : policies.authorize(caller, request);
        synchronized (entries) {
            entries.add(entry);
        }
        return entry;
    }

    public List<AuditEntry> entries() {
        synchronized (entries) {
            return List.copyOf(entries);
        }
    }

    /** The requests that were refused, in order. */
    public List<AuditEntry> denials() {
        return entries().stream().filter(e -> !e.decision().allowed()).toList();
    }

    /** Writes the log as JSON lines. */
    public void write(Path file) {
        StringBuilder lines = new StringBuilder();
        entries().forEach(entry -> lines.append(Json.write(json(entry))).append('\n'));
        try {
            Files.writeString(file, lines, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the audit log " + file, e);
        }
    }

    /** Keeps this log in the archive directory when the build asks for it and the stack's policies judged it. */
    public void archive() {
        String dir = System.getProperty(ARCHIVE_PROPERTY);
        if (dir == null || !stackPolicies || entries().isEmpty()) {
            return;
        }
        try {
            Files.createDirectories(Path.of(dir));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        write(Path.of(dir, "audit-" + ProcessHandle.current().pid() + "-" + ARCHIVED.incrementAndGet() + ".jsonl"));
    }

    public static ObjectNode json(AuditEntry entry) {
        ObjectNode line = Json.object()
                .put("function", entry.function())
                .put("role", entry.role())
                .put("principal", entry.principal())
                .put("action", entry.action())
                .put("resource", entry.resource());
        ObjectNode context = line.putObject("context");
        entry.context().forEach((key, values) -> {
            if (IamRequest.MULTI_VALUED.contains(key)) {
                values.forEach(context.putArray(key)::add);
            } else {
                context.put(key, values.get(0));
            }
        });
        line.put("decision", entry.decision().name());
        line.put("statement", entry.statement());
        return line;
    }
}
