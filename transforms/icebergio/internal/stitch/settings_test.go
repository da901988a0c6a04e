package stitch

import (
	"testing"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
	"github.com/stretchr/testify/require"
)

// Settings equal to the defaults, as Spark writes its codec out, are no
// difference: chunks encoded with the defaults are still stitched.
func TestSettingsDiff(t *testing.T) {
	// The properties of tables icebergio creates.
	chunks := iceberg.Properties{table.ManifestMergeEnabledKey: "true", "icebeam.created-by": "icebeam icebergio"}
	require.Empty(t, settingsDiff(chunks, iceberg.Properties{table.ParquetCompressionKey: "ZSTD"}),
		"a codec written out as the default is no difference")
	require.NotEmpty(t, settingsDiff(chunks, iceberg.Properties{"write.metadata.metrics.column.x": "none"}))
}
