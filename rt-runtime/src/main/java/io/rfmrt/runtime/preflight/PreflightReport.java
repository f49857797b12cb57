package io.rfmrt.runtime.preflight;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;
import java.util.Optional;

/**
 * The result of a preflight run: one {@link PreflightItem} per {@link CheckId}, in {@link CheckId} order. Immutable.
 */
public final class PreflightReport
{
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final String sysroot;
    private final List<PreflightItem> items;

    PreflightReport(final String sysroot, final List<PreflightItem> items)
    {
        this.sysroot = sysroot;
        this.items = List.copyOf(items);
    }

    /**
     * @return the root the files were read under, as given.
     */
    public String sysroot()
    {
        return sysroot;
    }

    /**
     * @return every item, in {@link CheckId} order.
     */
    public List<PreflightItem> items()
    {
        return items;
    }

    /**
     * @param check an item.
     * @return its result.
     */
    public PreflightItem item(final CheckId check)
    {
        for (final PreflightItem item : items)
        {
            if (item.check() == check)
            {
                return item;
            }
        }
        throw new IllegalStateException("no item " + check.id());
    }

    /**
     * @param id a stable id such as {@code "thp"}.
     * @return its result, if the id is known.
     */
    public Optional<PreflightItem> item(final String id)
    {
        return items.stream().filter(i -> i.id().equals(id)).findFirst();
    }

    /**
     * @param status a verdict.
     * @return how many items have it.
     */
    public int count(final CheckStatus status)
    {
        return (int)items.stream().filter(i -> i.status() == status).count();
    }

    /**
     * @return true when at least one item is {@link CheckStatus#FAIL}.
     */
    public boolean failed()
    {
        return count(CheckStatus.FAIL) > 0;
    }

    /**
     * @return the report as one JSON object:
     * {@code {"sysroot":…,"items":[{"id":…,"title":…,"status":"PASS|WARN|FAIL","value":…,"hint":…}],
     * "summary":{"pass":n,"warn":n,"fail":n}}}, indented.
     */
    public String toJson()
    {
        final ObjectNode root = JSON.createObjectNode();
        root.put("sysroot", sysroot);
        final ArrayNode array = root.putArray("items");
        for (final PreflightItem item : items)
        {
            array.addObject()
                .put("id", item.id())
                .put("title", item.title())
                .put("status", item.status().name())
                .put("value", item.value())
                .put("hint", item.hint());
        }
        root.putObject("summary")
            .put("pass", count(CheckStatus.PASS))
            .put("warn", count(CheckStatus.WARN))
            .put("fail", count(CheckStatus.FAIL));
        try
        {
            return JSON.writeValueAsString(root);
        }
        catch (final JsonProcessingException ex)
        {
            throw new IllegalStateException("cannot write the preflight report as JSON", ex);
        }
    }

    @Override
    public String toString()
    {
        return "PreflightReport{sysroot=" + sysroot + ", pass=" + count(CheckStatus.PASS) + ", warn=" +
            count(CheckStatus.WARN) + ", fail=" + count(CheckStatus.FAIL) + '}';
    }
}
