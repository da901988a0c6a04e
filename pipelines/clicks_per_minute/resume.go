package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/iceberg-go"
	icecatalog "github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/table"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/transforms/icebergio"
)

// resume decides where the source stream starts and readies the output for
// it. A minute's counts reach the output in one or more commits, so the
// newest minute there may be partial: its rows are deleted and the minute is
// counted again from the source's first snapshot committed in it. Older
// minutes are complete and stay. It returns a line saying what it did.
func resume(ctx context.Context, cfg catalog.Config, source, output string, size time.Duration, backfill bool, now time.Time) (icebergio.Start, string, error) {
	cat, err := catalog.Open(ctx, cfg)
	if err != nil {
		return icebergio.Start{}, "", err
	}
	sourceID, err := catalog.ParseTable(source)
	if err != nil {
		return icebergio.Start{}, "", err
	}
	outID, err := catalog.ParseTable(output)
	if err != nil {
		return icebergio.Start{}, "", err
	}
	if _, err := cat.LoadTable(ctx, sourceID); err != nil {
		return icebergio.Start{}, "", fmt.Errorf("source table %s: %w", source, err)
	}
	out, err := cat.LoadTable(ctx, outID)
	switch {
	case errors.Is(err, icecatalog.ErrNoSuchTable):
	case err != nil:
		return icebergio.Start{}, "", fmt.Errorf("table %s: %w", output, err)
	default:
		newest, ok, err := newestWindow(ctx, out)
		if err != nil {
			return icebergio.Start{}, "", fmt.Errorf("table %s: %w", output, err)
		}
		if ok {
			tx := out.NewTransaction()
			filter := iceberg.GreaterThanEqual(iceberg.Reference("window_start"), iceberg.Timestamp(newest.UnixMicro()))
			if err := tx.Delete(ctx, filter, nil); err != nil {
				return icebergio.Start{}, "", fmt.Errorf("table %s: deleting the counts from %v on: %w", output, newest, err)
			}
			if _, err := tx.Commit(ctx); err != nil {
				return icebergio.Start{}, "", fmt.Errorf("table %s: deleting the counts from %v on: %w", output, newest, err)
			}
			return icebergio.FromTime(newest), fmt.Sprintf("%s ends at the window of %v: counting it again, from the source's first snapshot in it",
				output, newest.UTC().Format(time.RFC3339)), nil
		}
	}
	if backfill {
		return icebergio.Earliest, fmt.Sprintf("backfill: counting every snapshot in %s's history, then new ones", source), nil
	}
	first := now.Truncate(size)
	return icebergio.FromTime(first), fmt.Sprintf("counting %s from the start of the current window, %v",
		source, first.UTC().Format(time.RFC3339)), nil
}

// newestWindow is the latest window_start in tbl, if it has rows.
func newestWindow(ctx context.Context, tbl *table.Table) (time.Time, bool, error) {
	if tbl.CurrentSnapshot() == nil {
		return time.Time{}, false, nil
	}
	at, err := tbl.Scan(table.WithSelectedFields("window_start")).ToArrowTable(ctx)
	if err != nil {
		return time.Time{}, false, err
	}
	defer at.Release()
	var newest int64
	found := false
	tr := array.NewTableReader(at, 1<<16)
	defer tr.Release()
	for tr.Next() {
		col, ok := tr.RecordBatch().Column(0).(*array.Timestamp)
		if !ok {
			return time.Time{}, false, fmt.Errorf("column window_start is %s, want a timestamp", tr.RecordBatch().Column(0).DataType())
		}
		for i := range col.Len() {
			if v := int64(col.Value(i)); col.IsValid(i) && (!found || v > newest) {
				newest, found = v, true
			}
		}
	}
	return time.UnixMicro(newest), found, nil
}
