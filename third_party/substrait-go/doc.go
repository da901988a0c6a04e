// SPDX-License-Identifier: Apache-2.0

// Package substraitgo contains the experimental go bindings for substrait
// (https://substrait.io).
package substraitgo
