// Package evolve holds the row types of internal/cmd/evolvestream's two
// releases, in one place because two programs must agree on them: the
// stream writes them, and interop/goread reads the evolved table back as a
// ClickV2.
package evolve

// ClickV1 is the first release's row.
type ClickV1 struct {
	Seq        int64    `beam:"seq"`
	UserID     string   `beam:"user_id"`
	ClickCount int32    `beam:"click_count"`
	Score      float32  `beam:"score"`
	Device     DeviceV1 `beam:"device"`
}

// DeviceV1 is ClickV1's nested struct.
type DeviceV1 struct {
	OS string `beam:"os"`
}

// ClickV2 widens click_count and score, adds session and device.version.
type ClickV2 struct {
	Seq        int64    `beam:"seq"`
	UserID     string   `beam:"user_id"`
	ClickCount int64    `beam:"click_count"`
	Score      float64  `beam:"score"`
	Device     DeviceV2 `beam:"device"`
	Session    *string  `beam:"session"`
}

// DeviceV2 is ClickV2's nested struct.
type DeviceV2 struct {
	OS      string  `beam:"os"`
	Version *string `beam:"version"`
}
